/**
 * What text the panel accepts, in one place. Control characters, bidirectional overrides and
 * isolates, zero-width characters and lone surrogates are refused wherever text comes in:
 * they hide or reorder what operators read (a name that displays as another), and PostgreSQL
 * cannot store a NUL. Text that is kept is stored in Unicode NFC, so that equal-looking
 * names are equal.
 */
import { z } from 'zod';

// C0 controls except tab, line feed and carriage return; DEL and C1; bidi marks, embeddings,
// overrides and isolates; zero-width space/joiners, word joiner, invisible operators, BOM;
// lone surrogates.
const unsafe =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const lineBreaks = /[\t\n\r]/;

export const UNSAFE_TEXT = 'validation.unsafe_characters';
export const ONE_LINE = 'validation.one_line';

/** Whether any character of the text is one the panel refuses. */
export const hasUnsafeCharacters = (text: string) => unsafe.test(text);

/** One line of text (names, labels, subjects): trimmed, NFC, bounded. */
export function lineText(min: number, max: number) {
  return z
    .string()
    .refine((s) => !hasUnsafeCharacters(s), UNSAFE_TEXT)
    .refine((s) => !lineBreaks.test(s), ONE_LINE)
    .normalize('NFC')
    .trim()
    .min(min)
    .max(max);
}

/** Text of several lines (notes, template bodies, messages): NFC, bounded; trimmed when asked. */
export function longText(min: number, max: number, options: { trim?: boolean } = {}) {
  const text = z
    .string()
    .refine((s) => !hasUnsafeCharacters(s), UNSAFE_TEXT)
    .normalize('NFC');
  return (options.trim ? text.trim() : text).min(min).max(max);
}
