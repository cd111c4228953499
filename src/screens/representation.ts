import type { Screen } from './screen';

/** The field that names a record in titles, pickers and the list's fixed first column: the first searchable one. */
export function representationOf(screen: Screen): string {
  const own = screen.extension.representation;
  if (own) return own;
  const searchable = Object.entries(screen.declaration.fields).find(([, f]) => f.search && !f.writeOnly);
  return searchable?.[0] ?? 'id';
}
