/**
 * The error classes of the API. Each has a body code and an HTTP status; `message` is a
 * translation key the client translates (resources/messages.ts).
 */
export const ErrorCode = {
  ok: 0,
  session: 20000,
  validation: 40000,
  notVerified: 40100,
  badCredentials: 40101,
  badCode: 40102,
  /** The first factor was right; a second one is needed (params: the pending sign-in). */
  secondFactor: 40103,
  forbidden: 40300,
  notFound: 40400,
  conflict: 40900,
  tooLarge: 41300,
  rateLimited: 42900,
  internal: 50000,
  mailFailed: 50200,
} as const;
export type ErrorCodeName = keyof typeof ErrorCode;

const httpStatus: Record<ErrorCodeName, number> = {
  ok: 200,
  session: 401,
  validation: 400,
  notVerified: 403,
  badCredentials: 401,
  badCode: 400,
  secondFactor: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooLarge: 413,
  rateLimited: 429,
  internal: 500,
  mailFailed: 502,
};

export type FieldErrors = Record<string, { message: string; params?: Record<string, unknown> }>;

export class AppError extends Error {
  readonly code: number;
  readonly status: number;
  constructor(
    readonly kind: ErrorCodeName,
    message: string,
    readonly params?: Record<string, unknown>,
    readonly errors?: FieldErrors,
  ) {
    super(message);
    this.code = ErrorCode[kind];
    this.status = httpStatus[kind];
  }
}

/** A single field's validation error, reported like zod's. */
export function fieldError(field: string, message: string, params?: Record<string, unknown>): AppError {
  return new AppError('validation', 'error.validation', undefined, { [field]: { message, params } });
}

export const notFound = () => new AppError('notFound', 'error.not_found');
export const forbidden = () => new AppError('forbidden', 'error.forbidden');
