/**
 * What "empty" means for a declared field, read from its own schema: the empty string for
 * texts that accept it (min 0), null where the schema takes null (an expiry, a product's
 * period), the declared default for numbers (a limit of 0 = none). A field none of these fit cannot be emptied:
 * its input says "Required" instead of sending a value the server would refuse.
 */
import { fieldSchema, type Field } from '../../resources/define';

const numeric = new Set(['integer', 'bytes']);

export function emptyValueOf(field: Field): { value: unknown } | undefined {
  if (field.writeOnly) return undefined; // an empty password keeps the current one
  const schema = fieldSchema(field);
  // A number without a default is emptied to null where its schema takes null (a product's period: never expires).
  if (numeric.has(field.kind) && field.default !== undefined) return schema.safeParse(field.default).success ? { value: field.default } : undefined;
  if (['text', 'longtext', 'email'].includes(field.kind) && schema.safeParse('').success) return { value: '' };
  // A union may read '' as something else (destinations); only a schema that keeps null empty counts.
  const asNull = schema.safeParse(null);
  if (asNull.success && asNull.data === null) return { value: null };
  return undefined;
}

export const canBeEmptied = (field: Field) => emptyValueOf(field) !== undefined;
