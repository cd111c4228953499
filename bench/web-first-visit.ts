/**
 * The bytes a first visit to / transfers: index.html and every file the home page loads (its
 * first download: the entry, its stylesheet, the default language's texts, the contact form; from
 * vite's manifest), asked of the built server as `npm start` runs it (node dist/server/main.js),
 * with the Accept-Encoding of Chromium, of a browser without brotli, and with none (what every
 * visitor downloaded before the server sent the build's compressed copies). Bytes as received:
 * the response's headers and its body before decoding. Then a second visit with the browser's
 * cache: what is revalidated, and what that costs. Written to bench/results/web-first-visit.json.
 *
 * Run after `npm run build`: `npm run bench:web`. BENCH_WEB_BUILD names another build (a directory
 * with server/main.js and web/, e.g. an earlier commit's dist) and BENCH_WEB_RESULT its result file.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { homePageFiles, readManifest } from './web-manifest.js';

const build = path.resolve(process.env.BENCH_WEB_BUILD ?? 'dist');
const resultFile = process.env.BENCH_WEB_RESULT ?? 'bench/results/web-first-visit.json';
const webRoot = path.join(build, 'web');
const browsers = [
  { name: 'chromium', acceptEncoding: 'gzip, deflate, br, zstd' },
  { name: 'gzip_only', acceptEncoding: 'gzip, deflate' },
  { name: 'none', acceptEncoding: undefined },
] as const;

interface Answer {
  url: string;
  status: number;
  content_encoding: string | null;
  cache_control: string | null;
  header_bytes: number;
  body_bytes: number;
  etag?: string;
}

function get(origin: string, url: string, headers: Record<string, string | undefined>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = Object.fromEntries(Object.entries(headers).filter((h): h is [string, string] => h[1] !== undefined));
    http
      .get(`${origin}${url}`, { headers: sent, agent: false }, (res) => {
        const body: Buffer[] = [];
        res.on('data', (chunk: Buffer) => body.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(body);
          const encoding = res.headers['content-encoding'] ?? null;
          // What the browser gets once decoded must be the file itself.
          if (res.statusCode === 200) {
            const decoded = encoding === 'br' ? zlib.brotliDecompressSync(raw) : encoding === 'gzip' ? zlib.gunzipSync(raw) : raw;
            if (!decoded.equals(fs.readFileSync(path.join(webRoot, url === '/' ? 'index.html' : url)))) reject(new Error(`${url}: the answer is not the file`));
          }
          let headerBytes = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n`.length + 2;
          for (let i = 0; i < res.rawHeaders.length; i += 2) headerBytes += Buffer.byteLength(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`);
          resolve({
            url,
            status: res.statusCode!,
            content_encoding: encoding,
            cache_control: res.headers['cache-control'] ?? null,
            header_bytes: headerBytes,
            body_bytes: raw.length,
            etag: res.headers.etag,
          });
        });
      })
      .on('error', reject);
  });
}

async function startServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-bench-web-'));
  const child = spawn(process.execPath, [path.join(build, 'server/main.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_ROOT: webRoot, ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'root-password-1', LOG_LEVEL: 'silent', SMTP_URL: '', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 90_000);
    child.stdout!.on('data', () => {
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
  });
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { origin, stop };
}

const urls = ['/', ...[...homePageFiles(readManifest(webRoot))].sort().map((f) => `/${f}`)];
const { origin, stop } = await startServer();
const total = (answers: Answer[]) => answers.reduce((n, a) => n + a.header_bytes + a.body_bytes, 0);
const visits: Record<string, unknown> = {};
try {
  for (const browser of browsers) {
    const first = [];
    for (const url of urls) first.push(await get(origin, url, { 'accept-encoding': browser.acceptEncoding }));
    // Second visit: a file whose answer allowed keeping it (max-age > 0) comes from the cache;
    // the others are asked again with their ETag (a 304 when unchanged).
    const second = [];
    for (const answer of first) {
      const kept = /max-age=[1-9]/.test(answer.cache_control ?? '');
      if (!kept) second.push(await get(origin, answer.url, { 'accept-encoding': browser.acceptEncoding, 'if-none-match': answer.etag }));
    }
    visits[browser.name] = {
      accept_encoding: browser.acceptEncoding ?? null,
      first_visit_bytes: total(first),
      first_visit_body_bytes: first.reduce((n, a) => n + a.body_bytes, 0),
      second_visit_requests: second.length,
      second_visit_bytes: total(second),
      files: first.map(({ etag: _etag, ...answer }) => answer),
    };
  }
} finally {
  await stop();
}

const rawBytes = urls.reduce((n, url) => n + fs.statSync(path.join(webRoot, url === '/' ? 'index.html' : url)).size, 0);
const result = {
  measured_at: new Date().toISOString(),
  build: path.relative(process.cwd(), build) || '.',
  note: 'GET of / and of every file the home page loads (vite manifest: entry, stylesheet, texts-zh, contact form), one connection each, from node <build>/server/main.js; bytes = response status line and headers + body as received (before decoding); second visit = requests a browser still makes with its cache (files without max-age > 0 revalidated with If-None-Match)',
  files: urls.length,
  raw_bytes: rawBytes,
  ...visits,
};
fs.mkdirSync(path.dirname(resultFile), { recursive: true });
fs.writeFileSync(resultFile, `${JSON.stringify(result, null, 2)}\n`);
console.log(`first visit to / (${urls.length} files, ${rawBytes} B as built), from ${result.build}:`);
for (const browser of browsers) {
  const visit = visits[browser.name] as { first_visit_bytes: number; second_visit_requests: number; second_visit_bytes: number };
  console.log(`  ${`Accept-Encoding: ${browser.acceptEncoding ?? '(none)'}`.padEnd(42)} ${String(visit.first_visit_bytes).padStart(8)} B;  second visit ${visit.second_visit_requests} requests, ${visit.second_visit_bytes} B`);
}
