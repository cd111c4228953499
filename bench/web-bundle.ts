/**
 * Size of each chunk of the built web app (raw and gzip), written to
 * bench/results/web-bundle.json. Run after `npm run build`: `npm run bench:web`.
 * Every page first loads the entry chunk and the texts of its language; each public page's
 * route and each area load their own chunks (react-admin's shared by both areas) when opened.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { areaKey, filesOf, firstDownload, homePageFiles, readManifest } from './web-manifest.js';

const dir = path.resolve('dist/web');
const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
const entry = /src="\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
const preloaded = [...html.matchAll(/href="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);

const chunks = fs
  .readdirSync(path.join(dir, 'assets'))
  .filter((f) => /\.(js|css)$/.test(f))
  .map((file) => {
    const bytes = fs.readFileSync(path.join(dir, 'assets', file));
    const name = `assets/${file}`;
    return {
      file: name,
      chunk: file.replace(/-[A-Za-z0-9_-]{8}\.(js|css)$/, ''),
      loadedBy: name === entry || preloaded.includes(name) ? 'every page' : 'on demand',
      raw_bytes: bytes.length,
      gzip_bytes: zlib.gzipSync(bytes, { level: 9 }).length,
    };
  })
  .sort((a, b) => b.gzip_bytes - a.gzip_bytes);

const sum = (list: typeof chunks) => list.reduce((n, c) => n + c.gzip_bytes, 0);
const everyPage = sum(chunks.filter((c) => c.loadedBy === 'every page'));

// Each public page: the first download plus the chunks its route loads (vite's manifest: the
// page's chunk and everything it imports statically), JavaScript only.
const manifest = readManifest(dir);
const gzipOf = new Map(chunks.map((c) => [c.file, c.gzip_bytes]));
const gzipOfFiles = (files: Set<string>) => [...files].filter((f) => f.endsWith('.js')).reduce((n, f) => n + (gzipOf.get(f) ?? 0), 0);
const publicPages = Object.keys(manifest).filter((k) => /^src\/public\/\w+Page\.tsx$/.test(k));
const perPage: Record<string, number> = Object.fromEntries([
  ['/ (home)', gzipOfFiles(homePageFiles(manifest))],
  ...publicPages.map((k) => [path.basename(k, '.tsx'), gzipOfFiles(filesOf(manifest, k, firstDownload(manifest)))]),
]);
const area = (name: string) => filesOf(manifest, areaKey(manifest, name), firstDownload(manifest));
const publicGzip = Math.max(...Object.values(perPage));
const goal = 110 * 1024;
const result = {
  measured_at: new Date().toISOString(),
  note: 'vite build of src/ (npm run build); gzip level 9 of each emitted chunk; a public page = the first download (entry + the default language\'s texts) + the chunks its route loads; an area = the first download + its chunks',
  goal_public_pages_gzip_bytes: goal,
  goal_met: publicGzip <= goal,
  public_pages_gzip_bytes: publicGzip,
  first_download_gzip_bytes: gzipOfFiles(firstDownload(manifest)),
  public_page_gzip_bytes: perPage,
  customer_area_gzip_bytes: gzipOfFiles(area('CustomerApp')),
  operator_area_gzip_bytes: gzipOfFiles(area('OperatorApp')),
  chunks,
};
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/web-bundle.json', `${JSON.stringify(result, null, 2)}\n`);
for (const c of chunks) console.log(`${c.file.padEnd(44)} ${String(c.raw_bytes).padStart(9)} B  gzip ${String(c.gzip_bytes).padStart(8)} B  ${c.loadedBy}`);
for (const [page, bytes] of Object.entries(perPage)) console.log(`public page ${page.padEnd(24)} ${bytes} B gzip`);
console.log(`public pages: at most ${publicGzip} B gzip (goal ${goal}: ${publicGzip <= goal ? 'met' : 'not met'})`);
