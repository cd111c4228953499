/**
 * Query strings read strictly: a percent sign that starts no valid UTF-8 sequence ("%", "%zz",
 * "%FF", an encoded lone surrogate) makes the query malformed, where a lenient decoder would
 * pass it on as other text. A malformed query is answered 40000 by the call (calls.ts).
 */
export const malformedQuery = Symbol('malformed query');

export function parseQueryString(text: string): Record<string, unknown> {
  const query: Record<string | symbol, unknown> = Object.create(null);
  if (text === '') return query;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent((at < 0 ? pair : pair.slice(0, at)).replace(/\+/g, ' '));
      value = at < 0 ? '' : decodeURIComponent(pair.slice(at + 1).replace(/\+/g, ' '));
    } catch {
      query[malformedQuery] = true;
      continue;
    }
    const present = query[name];
    query[name] = present === undefined ? value : Array.isArray(present) ? [...present, value] : [present, value];
  }
  return query;
}
