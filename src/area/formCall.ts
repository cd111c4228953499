/**
 * A form's onSubmit around an API call: on success tell the user (and hand back the answer);
 * on failure return the server's field errors, which react-admin's <Form> shows beside the
 * fields (only a refusal that names no field opens the WARNING alert).
 */
import type { HttpError } from 'react-admin';

export async function submitCall<T>(work: () => Promise<T>, onDone: (answer: T) => void): Promise<Record<string, string> | undefined> {
  try {
    onDone(await work());
    return undefined;
  } catch (error) {
    return (error as HttpError).body?.errors ?? {};
  }
}
