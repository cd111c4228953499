/**
 * Size of each chunk of the built web app (raw and gzip), written to
 * bench/results/web-bundle.json. Run after `npm run build`: `npm run bench:web`.
 * The public pages load only the entry chunk; each area loads its own chunk plus the shared
 * react-admin chunk when one of its paths is opened.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

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
      loadedBy: name === entry || preloaded.includes(name) ? 'every page' : 'on demand (an area)',
      raw_bytes: bytes.length,
      gzip_bytes: zlib.gzipSync(bytes, { level: 9 }).length,
    };
  })
  .sort((a, b) => b.gzip_bytes - a.gzip_bytes);

const sum = (list: typeof chunks) => list.reduce((n, c) => n + c.gzip_bytes, 0);
const publicGzip = sum(chunks.filter((c) => c.loadedBy === 'every page'));
const result = {
  measured_at: new Date().toISOString(),
  note: 'vite build of src/ (npm run build); gzip level 9 of each emitted chunk',
  public_pages_gzip_bytes: publicGzip,
  customer_area_gzip_bytes: publicGzip + sum(chunks.filter((c) => /^(CustomerApp|areas-shared|zod)/.test(c.chunk))),
  operator_area_gzip_bytes: publicGzip + sum(chunks.filter((c) => /^(OperatorApp|areas-shared|zod)/.test(c.chunk))),
  chunks,
};
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/web-bundle.json', `${JSON.stringify(result, null, 2)}\n`);
for (const c of chunks) console.log(`${c.file.padEnd(44)} ${String(c.raw_bytes).padStart(9)} B  gzip ${String(c.gzip_bytes).padStart(8)} B  ${c.loadedBy}`);
console.log(`public pages: ${publicGzip} B gzip`);
