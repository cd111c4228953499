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

/** A message in a language with its %{placeholders} filled, as the web app's polyglot does (for e-mails and the command line). */
export function messageText(locale: keyof typeof serverMessages, key: string, params: Record<string, unknown> = {}): string {
  const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], serverMessages[locale]);
  // "one |||| many", chosen by smart_count as polyglot's English rule does (Chinese has one form).
  const forms = String(typeof text === 'string' ? text : key).split(' |||| ');
  return forms[forms.length > 1 && Number(params.smart_count) !== 1 ? 1 : 0].replace(/%\{(\w+)\}/g, (whole, name: string) => (params[name] === undefined ? whole : String(params[name])));
}
