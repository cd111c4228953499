/** zod issues → field errors whose messages are translation keys (resources/messages.ts). */
import { z } from 'zod';
import { formatBytes } from '../../resources/bytes.js';
import { hasUnsafeCharacters, UNSAFE_TEXT } from '../../resources/text.js';
import { AppError, type FieldErrors } from './errors.js';
import { multipleValues, type ParsedQuery } from './query-string.js';

/** The value the client sent at a problem's path (coercion hides a missing value from zod's issue). */
function sentAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** The limit a schema's own too_short/too_long key counts, e.g. .max(128, 'validation.too_long'): "at most 128 characters". */
function countedLimit(problem: z.core.$ZodIssue): Record<string, unknown> | undefined {
  if (problem.code === 'too_small' && /^validation\.too_(short|few)$/.test(problem.message)) return { min: Number(problem.minimum), smart_count: Number(problem.minimum) };
  if (problem.code === 'too_big' && /^validation\.too_(long|many)$/.test(problem.message)) return { max: Number(problem.maximum), smart_count: Number(problem.maximum) };
  return undefined;
}

function messageOf(problem: z.core.$ZodIssue, sent: unknown): { message: string; params?: Record<string, unknown> } {
  // A size's limit in bytes and as people read it (resources/define.ts byteSize).
  if (problem.code === 'too_small' && problem.message === 'validation.size_too_small') return { message: problem.message, params: { min: Number(problem.minimum), min_text: formatBytes(problem.minimum) } };
  if (problem.code === 'too_big' && problem.message === 'validation.size_too_big') return { message: problem.message, params: { max: Number(problem.maximum), max_text: formatBytes(problem.maximum) } };
  // A schema may name its own key, e.g. .regex(/^\d{6}$/, 'validation.code_format').
  if (problem.message.startsWith('validation.')) return { message: problem.message, params: (problem as { params?: Record<string, unknown> }).params ?? countedLimit(problem) };
  const missing = sent === undefined || sent === null;
  switch (problem.code) {
    case 'invalid_type':
      return missing ? { message: 'validation.required' } : { message: 'validation.invalid_type', params: { expected: problem.expected } };
    case 'too_small':
      // A required text sent empty (or blank) is "Required", not "at least 1 character".
      if (problem.origin === 'string' && Number(problem.minimum) === 1 && (missing || (typeof sent === 'string' && sent.trim() === ''))) return { message: 'validation.required' };
      if (problem.origin === 'string') return { message: 'validation.too_short', params: { min: Number(problem.minimum), smart_count: Number(problem.minimum) } };
      if (problem.origin === 'array') return { message: 'validation.too_few', params: { min: Number(problem.minimum), smart_count: Number(problem.minimum) } };
      return { message: 'validation.too_small', params: { min: Number(problem.minimum) } };
    case 'too_big':
      if (problem.origin === 'string') return { message: 'validation.too_long', params: { max: Number(problem.maximum), smart_count: Number(problem.maximum) } };
      if (problem.origin === 'array') return { message: 'validation.too_many', params: { max: Number(problem.maximum), smart_count: Number(problem.maximum) } };
      return { message: 'validation.too_big', params: { max: Number(problem.maximum) } };
    case 'invalid_format':
      return { message: problem.format === 'email' ? 'validation.invalid_email' : 'validation.invalid_format' };
    case 'invalid_value':
      if (missing) return { message: 'validation.required' };
      return { message: 'validation.invalid_choice', params: { choices: problem.values.join(', ') } };
    case 'invalid_union':
      return { message: 'validation.invalid' };
    case 'unrecognized_keys':
      return { message: 'validation.unknown_field', params: { fields: problem.keys.join(', ') } };
    default:
      return { message: 'validation.invalid' };
  }
}

// Names that reach for an object's prototype: never a field of ours, whatever the schema.
const forbiddenNames = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_DEPTH = 32;

/**
 * What no call accepts anywhere in its input, whatever its schema says (also in JSON fields,
 * keys and passwords): prototype names, refused characters (resources/text.ts), deep nesting.
 */
function refuseUnsafe(value: unknown, path: string[], errors: FieldErrors, depth = 0): void {
  if (typeof value === 'string') {
    if (hasUnsafeCharacters(value)) report(errors, path, UNSAFE_TEXT);
    return;
  }
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return;
  if (depth > MAX_DEPTH) return report(errors, path, 'validation.too_deep');
  for (const key of Object.keys(value)) {
    const here = [...path, key];
    // Also "__proto__[x]": parsers that expand brackets would reach the prototype with it.
    if (forbiddenNames.has(key) || key.includes('__proto__')) report(errors, here, 'validation.forbidden_name');
    else if (hasUnsafeCharacters(key)) report(errors, here, UNSAFE_TEXT);
    else refuseUnsafe((value as Record<string, unknown>)[key], here, errors, depth + 1);
  }
}

// Not a closure in refuseUnsafe: it runs for every call's input, and a function made per call costs.
function report(errors: FieldErrors, at: string[], message: string) {
  // `errors` has no prototype: a refused "__proto__" or "constructor" is a key like any other.
  const key = at.join('.') || '_';
  if (!Object.hasOwn(errors, key)) errors[key] = { message };
}

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const refused: FieldErrors = Object.create(null);
  refuseUnsafe(input, [], refused);
  // A query string's parameter given twice or as a list (query-string.ts): refused as POST bodies refuse [1].
  for (const name of (input as ParsedQuery | undefined)?.[multipleValues] ?? []) if (!Object.hasOwn(refused, name)) refused[name] = { message: 'validation.one_value' };
  if (Object.keys(refused).length > 0) throw new AppError('validation', 'error.validation', undefined, refused);
  // No body at all is an empty one; a JSON null is not an object and is refused like any other non-object.
  const result = schema.safeParse(input === undefined ? {} : input);
  if (result.success) return result.data;
  const errors: FieldErrors = {};
  for (const problem of result.error.issues) {
    const key = problem.path.join('.') || '_';
    errors[key] ??= messageOf(problem, sentAt(input, problem.path));
  }
  throw new AppError('validation', 'error.validation', undefined, errors);
}
