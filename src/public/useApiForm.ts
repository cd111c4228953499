/** State of a public form: its values, the server's field errors (translated) and whether it is sending. */
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/errors';
import { translate } from '../i18n';

export function useApiForm<V extends Record<string, string>>(initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof V | '_', string>>>({});
  const [busy, setBusy] = useState(false);

  const field = (name: keyof V & string) => ({
    name,
    value: values[name],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
    error: Boolean(errors[name]),
    helperText: errors[name] ?? ' ',
  });

  /** Runs the call; field errors of a refusal are shown beside their fields (the alert shows the message). */
  const submit = (work: (values: V) => Promise<unknown>) => async (event?: FormEvent) => {
    event?.preventDefault();
    // A refusal is shown in the WARNING dialog, which brings MUI and loads on demand: fetch it while the request runs.
    void import('../dialogs/DialogHost');
    setBusy(true);
    setErrors({});
    try {
      await work(values);
    } catch (error) {
      if (error instanceof ApiError && error.errors) {
        setErrors(Object.fromEntries(Object.entries(error.errors).map(([k, e]) => [k, translate(e.message, { _: e.message, ...e.params })])) as typeof errors);
      }
    } finally {
      setBusy(false);
    }
  };

  return { values, setValues, errors, setErrors, busy, field, submit };
}
