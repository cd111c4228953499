/**
 * The web app over the wire: a browser downloads the brotli (or gzip) copy the build made of
 * each file, keeps the hashed files under /assets for a year and revalidates index.html on every
 * visit; a missing script is a 404, not the app's page. Served from a small built app made by
 * the same build step as `npm run build` (vite-plugins/precompress.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { precompress } from '../../vite-plugins/precompress.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const chromium = 'gzip, deflate, br, zstd';
const script = 'assets/index-Bx7kq2Zc.js';
const stylesheet = 'assets/index-D4mP9wQe.css';
const image = 'assets/logo-C3n8vT1a.png';

let t: TestApp;
let webRoot: string;
const original = (file: string) => fs.readFileSync(path.join(webRoot, file));

beforeAll(async () => {
  webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-web-'));
  fs.mkdirSync(path.join(webRoot, 'assets'));
  fs.writeFileSync(
    path.join(webRoot, 'index.html'),
    `<!doctype html>\n<html lang="zh">\n  <head>\n    <meta charset="UTF-8" />\n    <meta name="viewport" content="width=device-width, initial-scale=1.0" />\n    <title>Maildesk</title>\n    <script type="module" crossorigin src="/${script}"></script>\n    <link rel="stylesheet" crossorigin href="/${stylesheet}">\n  </head>\n  <body>\n    <div id="root"></div>\n  </body>\n</html>\n`,
  );
  const modules = Array.from({ length: 400 }, (_, i) => `function screen${i}(props){return jsx("div",{className:"screen-${i}",children:[props.title,props.record?.name??"—"]})}`);
  fs.writeFileSync(path.join(webRoot, script), `import{jsx}from"./react-Dq3a8f1b.js";${modules.join(';')};export{${modules.map((_, i) => `screen${i}`).join(',')}};\n`);
  fs.writeFileSync(path.join(webRoot, stylesheet), Array.from({ length: 200 }, (_, i) => `.screen-${i}{margin:${i % 8}px;color:#1976d2;font-family:system-ui,sans-serif}`).join('\n'));
  // Already compressed: sent as it is.
  fs.writeFileSync(path.join(webRoot, image), zlib.gzipSync(Buffer.from(modules.join(''))));
  await precompress(webRoot);
  t = await startTestApp({ WEB_ROOT: webRoot });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(webRoot, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

it('When the app is built, then each script, stylesheet and page has a brotli and a gzip copy that decode to it, and already compressed files none', () => {
  for (const file of [script, stylesheet, 'index.html']) {
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(webRoot, `${file}.br`)))).toEqual(original(file));
    expect(zlib.gunzipSync(fs.readFileSync(path.join(webRoot, `${file}.gz`)))).toEqual(original(file));
  }
  expect(fs.existsSync(path.join(webRoot, `${image}.br`))).toBe(false);
});

it('When Chromium asks for a script or stylesheet, then it downloads the brotli copy, kept for a year, and decoding it gives the file', async () => {
  for (const file of [script, stylesheet]) {
    const answer = await get(`/${file}`, { 'accept-encoding': chromium });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toMatch(file.endsWith('.js') ? /^(text|application)\/javascript; charset=utf-8/ : /^text\/css; charset=utf-8/);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
    expect(answer.rawPayload.length).toBeLessThan(original(file).length / 5);
    expect(zlib.brotliDecompressSync(answer.rawPayload)).toEqual(original(file));
  }
});

it('When a browser accepts gzip but not brotli, then it downloads the gzip copy; when it accepts neither, the file as it is', async () => {
  for (const acceptEncoding of ['gzip, deflate', 'br;q=0, gzip']) {
    const answer = await get(`/${script}`, { 'accept-encoding': acceptEncoding });
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(answer.rawPayload)).toEqual(original(script));
  }
  for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
    const answer = await get(`/${script}`, headers);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.rawPayload).toEqual(original(script));
  }
  const picture = await get(`/${image}`, { 'accept-encoding': chromium });
  expect(picture.headers['content-encoding']).toBeUndefined();
  expect(picture.rawPayload).toEqual(original(image));
});

it('When the app page is opened (/, an area, a path it does not know), then it comes compressed, is revalidated on every visit, and keeps its security headers', async () => {
  for (const url of ['/', '/index.html', '/admin/email', '/manage/admin/update?id=3', '/mail/rules', '/no/such/page']) {
    const answer = await get(url, { 'accept-encoding': chromium });
    expect(answer.statusCode, url).toBe(200);
    expect(answer.headers['content-type'], url).toMatch(/^text\/html/);
    expect(answer.headers['content-encoding'], url).toBe('br');
    expect(answer.headers['cache-control'], url).toBe('no-cache');
    expect(answer.headers.vary, url).toMatch(/accept-encoding/i);
    expect(answer.headers['content-security-policy'], url).toContain("script-src 'self'");
    expect(answer.headers['x-frame-options'], url).toBe('DENY');
    expect(zlib.brotliDecompressSync(answer.rawPayload)).toEqual(original('index.html'));
  }
  const plain = await get('/admin/email');
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.rawPayload).toEqual(original('index.html'));
});

it('When a returning visitor revalidates the page, then nothing is downloaded again while it is unchanged', async () => {
  const first = await get('/', { 'accept-encoding': chromium });
  expect(first.headers.etag).toBeTruthy();
  const again = await get('/', { 'accept-encoding': chromium, 'if-none-match': String(first.headers.etag) });
  expect(again.statusCode).toBe(304);
  expect(again.rawPayload.length).toBe(0);
});

it('When a file under /assets does not exist (a page of an older build asking for its script), then the answer is a 404, not the app page', async () => {
  for (const url of ['/assets/index-OldBuild1.js', '/assets/index-OldBuild1.css', `/${script}.br`, `/${script}.gz`]) {
    for (const headers of [{ 'accept-encoding': chromium }, {}] as Record<string, string>[]) {
      const answer = await get(url, headers);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.headers['content-type'], url).not.toMatch(/html|javascript/);
      expect(answer.headers['cache-control'], url).not.toMatch(/immutable|max-age=[1-9]/);
      expect(answer.body).not.toContain('<div id="root">');
    }
  }
});
