/**
 * The screens of an area, derived from the resource declarations: a declaration with access in
 * an area gets a screen there, named by its page path (react-admin's resource name), and talks
 * to the API path of that area.
 */
import { resources } from '../../resources/index';
import type { Area, AreaConfig, Field, Operation, ResourceDeclaration } from '../../resources/define';

export interface Screen {
  area: Area;
  /** react-admin resource name = path segment of the screens, e.g. "admin" in /manage/admin. */
  name: string;
  declaration: ResourceDeclaration;
  config: AreaConfig<unknown>;
  /** e.g. "/api/manage/admin" */
  apiBase: string;
  listVia: 'query' | 'body';
}

export function screensOf(area: Area, declarations: readonly ResourceDeclaration[] = resources): Screen[] {
  return declarations
    .filter((d) => d[area])
    .map((declaration) => {
      const config = declaration[area] as AreaConfig<unknown>;
      const apiPath = config.path ?? declaration.name;
      return {
        area,
        name: config.page ?? apiPath,
        declaration,
        config,
        apiBase: `/api/${area}/${apiPath}`,
        listVia: config.listVia ?? 'body',
      };
    });
}

export const allows = (screen: Screen, op: Operation) => Boolean(screen.config[op]);

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

/** The screen name, in an area, of the resource a reference field points at (e.g. customer → "user" in /manage). */
export function screenNameOf(area: Area, declarationName: string | undefined): string | undefined {
  if (!declarationName) return undefined;
  return screensOf(area).find((s) => s.declaration.name === declarationName)?.name;
}
