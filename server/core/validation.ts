/** zod issues → field errors whose messages are translation keys (resources/messages.ts). */
import { z } from 'zod';
import { AppError, type FieldErrors } from './errors.js';

/** The value the client sent at an issue's path (coercion hides a missing value from zod's issue). */
function sentAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function messageOf(issue: z.core.$ZodIssue, sent: unknown): { message: string; params?: Record<string, unknown> } {
  // A schema may name its own key, e.g. .regex(/^\d{6}$/, 'validation.code_format').
  if (issue.message.startsWith('validation.')) return { message: issue.message, params: (issue as { params?: Record<string, unknown> }).params };
  const missing = sent === undefined || sent === null;
  switch (issue.code) {
    case 'invalid_type':
      return missing ? { message: 'validation.required' } : { message: 'validation.invalid_type', params: { expected: issue.expected } };
    case 'too_small':
      if (issue.origin === 'string') return { message: 'validation.too_short', params: { min: Number(issue.minimum) } };
      if (issue.origin === 'array') return { message: 'validation.too_few', params: { min: Number(issue.minimum) } };
      return { message: 'validation.too_small', params: { min: Number(issue.minimum) } };
    case 'too_big':
      if (issue.origin === 'string') return { message: 'validation.too_long', params: { max: Number(issue.maximum) } };
      if (issue.origin === 'array') return { message: 'validation.too_many', params: { max: Number(issue.maximum) } };
      return { message: 'validation.too_big', params: { max: Number(issue.maximum) } };
    case 'invalid_format':
      return { message: issue.format === 'email' ? 'validation.invalid_email' : 'validation.invalid_format' };
    case 'invalid_value':
      if (missing) return { message: 'validation.required' };
      return { message: 'validation.invalid_choice', params: { choices: issue.values.join(', ') } };
    case 'invalid_union':
      return { message: 'validation.invalid' };
    case 'unrecognized_keys':
      return { message: 'validation.unknown_field', params: { fields: issue.keys.join(', ') } };
    default:
      return { message: 'validation.invalid' };
  }
}

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {}, { reportInput: true });
  if (result.success) return result.data;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.') || '_';
    errors[key] ??= messageOf(issue, sentAt(input, issue.path));
  }
  throw new AppError('validation', 'error.validation', undefined, errors);
}
