/** What the API answered when the body's code was not 0 (or the call never got an answer). */
export type FieldErrors = Record<string, { message: string; params?: Record<string, unknown> }>;

export const SESSION_CODE = 20000;
/** The password was right and a second factor is needed: params hold the pending sign-in (the sign-in pages show the second step). */
export const SECOND_FACTOR_CODE = 40103;
/** Our own codes for failures that never reached the API's envelope. */
export const TIMEOUT_CODE = -1;
export const NETWORK_CODE = -2;

export class ApiError extends Error {
  constructor(
    /** The envelope's code (or TIMEOUT_CODE / NETWORK_CODE). */
    readonly code: number,
    /** A translation key, e.g. "error.bad_code". */
    message: string,
    readonly status: number,
    readonly params?: Record<string, unknown>,
    readonly errors?: FieldErrors,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
