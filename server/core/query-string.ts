/**
 * Query strings read strictly: a percent sign that starts no valid UTF-8 sequence ("%", "%zz",
 * "%FF", an encoded lone surrogate) makes the query malformed, where a lenient decoder would
 * pass it on as other text. A malformed query is answered 40000 by the call (calls.ts).
 *
 * Every parameter of a call is one value (a list or an object travels as JSON text in it, as
 * `filter` does): a name given twice (`id=1&id=1`) or in a list or object form (`id[]=1`,
 * `id[0]=1`, `filter[a]=1`) never becomes an array or object that a schema or handler might
 * take its first element of. The parameter is left out and named in `multipleValues`, which
 * validation refuses (validation.one_value) before any schema sees the query.
 */
export const malformedQuery = Symbol('malformed query');
export const multipleValues = Symbol('parameters given more than one value');

export type ParsedQuery = Record<string, unknown> & { [malformedQuery]?: true; [multipleValues]?: string[] };

export function parseQueryString(text: string): ParsedQuery {
  const query: ParsedQuery = Object.create(null);
  if (text === '') return query;
  const many = new Set<string>();
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
    const bracket = name.indexOf('[');
    if (bracket > 0) {
      many.add(name.slice(0, bracket));
      // Kept as written, a name no call has, so that validation still sees a forbidden one (`__proto__[x]`).
      if (!Object.hasOwn(query, name)) query[name] = value;
    } else if (many.has(name) || Object.hasOwn(query, name)) many.add(name);
    else query[name] = value;
  }
  if (many.size > 0) {
    for (const name of many) delete query[name];
    query[multipleValues] = [...many];
  }
  return query;
}
