/**
 * The screens of an area, derived from the declarations its features give: a declaration with
 * access in an area gets a screen there, named by its page path (react-admin's resource name),
 * and talks to the API path of that area.
 */
import { inArea, type Area, type AreaConfig, type Field, type Operation, type ResourceDeclaration } from '../../resources/define';
import type { Screen, ScreenFeature } from './screen';

/** The screen of a feature's resource in an area, or none when the area has no access to it. */
export function screenOf(area: Area, { declaration, extension = {}, icon }: ScreenFeature): Screen | undefined {
  const config = declaration[area] as AreaConfig<unknown> | undefined;
  if (!config) return undefined;
  const apiPath = config.path ?? declaration.name;
  return {
    area,
    name: config.page ?? apiPath,
    declaration: inArea(declaration, area),
    config,
    apiBase: `/api/${area}/${apiPath}`,
    listVia: config.listVia ?? 'body',
    extension,
    icon,
  };
}

export const allows = (screen: Screen, op: Operation) => Boolean(screen.config[op]);

/** Create, update (?id=) or view (?id=) pages a screen has. */
export function pagesOf(screen: Screen) {
  const own = screen.extension.pages?.(screen.area);
  if (own) return own;
  const update = allows(screen, 'update');
  return { form: update || allows(screen, 'create'), update, view: allows(screen, 'get') && !update };
}

/** Field names of a declaration that are shown (never the write-only ones). */
export const visibleFields = (d: ResourceDeclaration) => Object.entries(d.fields).filter(([, f]) => !f.writeOnly);

/**
 * Whether an area's calls accept a field at all: `writableIn` (declarations may limit a
 * field to one area, e.g. limits only operators set) and `writable` for the operation.
 */
export function acceptsField(field: Field, area: Area, op: 'create' | 'update'): boolean {
  const onlyIn = (field as Field & { writableIn?: Area }).writableIn;
  if (onlyIn && onlyIn !== area) return false;
  const writable = field.writable ?? 'always';
  return writable === 'always' || (writable === 'create' && op === 'create');
}
