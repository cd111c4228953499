/** Which built files each page loads, from vite's manifest (dist/web/.vite/manifest.json). */
import fs from 'node:fs';
import path from 'node:path';

type ManifestEntry = { file: string; name?: string; imports?: string[]; css?: string[]; isEntry?: boolean; isDynamicEntry?: boolean };
export type Manifest = Record<string, ManifestEntry>;

export const readManifest = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, '.vite/manifest.json'), 'utf8')) as Manifest;

/** A chunk and everything it imports statically, with their stylesheets (paths as `assets/…`). */
export function filesOf(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  const entry = manifest[key];
  if (!entry || seen.has(entry.file)) return seen;
  seen.add(entry.file);
  for (const css of entry.css ?? []) seen.add(css);
  for (const imported of entry.imports ?? []) filesOf(manifest, imported, seen);
  return seen;
}

/** The first download of every page: the entry and, before the first render, the texts of the default language. */
export function firstDownload(manifest: Manifest) {
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  return filesOf(manifest, 'src/i18n/texts-zh.ts', filesOf(manifest, entryKey));
}

/** The home page: the first download and its contact form, which it renders at once (below the fold, in its own chunk). */
export const homePageFiles = (manifest: Manifest) => filesOf(manifest, 'src/public/ContactForm.tsx', firstDownload(manifest));

/** An area's manifest key (vite does not always key a dynamic entry by its source path). */
export const areaKey = (manifest: Manifest, name: string) => Object.keys(manifest).find((k) => manifest[k].isDynamicEntry && manifest[k].name === name)!;
