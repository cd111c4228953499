/**
 * Texts of the message keys the API answers with (`message`, field errors), in both
 * languages, with polyglot %{placeholders}. The web app merges them into its translations
 * (each language in its own file, so that a page loads only its visitor's); a test checks
 * that every key the server uses is here.
 */
import { serverMessagesEn, type ServerMessages } from './messages-en.js';
import { serverMessagesZh } from './messages-zh.js';

export type { ServerMessages };

export const serverMessages = { en: serverMessagesEn, zh: serverMessagesZh };

/** Whether a dotted key (e.g. "error.bad_code") has a text in a language. */
export function hasMessage(messages: ServerMessages, key: string): boolean {
  let node: unknown = messages;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string';
}
