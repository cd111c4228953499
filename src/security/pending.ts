/** A pending sign-in, as the first step answers it (error 40103): the sign-in pages then show the second step. */
import { ApiError, SECOND_FACTOR_CODE } from '../api/errors';

export interface PendingSignIn {
  token: string;
  methods: ('totp' | 'recovery_code' | 'passkey')[];
  /** The person must set up a second factor before their first session. */
  enrol: boolean;
}

/** Runs a sign-in's first step; when a second factor is needed, hands the pending sign-in to `onPending` instead. */
export async function orSecondStep(work: () => Promise<unknown>, onPending: (pending: PendingSignIn) => void): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ApiError && error.code === SECOND_FACTOR_CODE && error.params) return onPending(error.params as unknown as PendingSignIn);
    throw error;
  }
}
