/**
 * Brotli and gzip copies of every compressible built file (`app-1a2b3c4d.js.br`, `….js.gz`),
 * made once at build time at the highest levels, so the server sends the smaller copy a browser
 * accepts without compressing anything per request (server/core/web-app.ts). node:zlib only.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text formats; images and fonts (png, jpeg, woff2) are compressed already. */
const compressible = /\.(?:js|mjs|css|html|svg|json|txt|xml|map|webmanifest|ico)$/;

export interface Precompressed {
  file: string;
  bytes: number;
  /** Size of the copy written, or null when compressing saved nothing (the file is sent as it is). */
  br: number | null;
  gzip: number | null;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  // Not vite's manifest (.vite/): the server does not serve dot files.
  return entries
    .filter((e) => e.isFile() && compressible.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => !path.relative(dir, file).split(path.sep).some((part) => part.startsWith('.')));
}

/** Writes `<file>.br` and `<file>.gz` beside each compressible file under `dir`, where smaller than the file. */
export async function precompress(dir: string): Promise<Precompressed[]> {
  const files = await filesUnder(dir);
  return Promise.all(
    files.map(async (file) => {
      const bytes = await fs.readFile(file);
      const [br, gz] = await Promise.all([
        brotli(bytes, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
        gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      const write = async (copy: Buffer, extension: string) => {
        if (copy.length >= bytes.length) return null;
        await fs.writeFile(file + extension, copy);
        return copy.length;
      };
      return { file: path.relative(dir, file).split(path.sep).join('/'), bytes: bytes.length, br: await write(br, '.br'), gzip: await write(gz, '.gz') };
    }),
  );
}

/** The build step: once vite has written the app, its compressed copies beside it. */
export function precompressPlugin(): Plugin {
  let outDir = '';
  let log = (_message: string) => {};
  return {
    name: 'maildesk-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      log = (message) => config.logger.info(message);
    },
    writeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const made = await precompress(outDir);
        const sum = (pick: (p: Precompressed) => number | null) => made.reduce((n, p) => n + (pick(p) ?? p.bytes), 0);
        log(`${made.length} files precompressed: ${sum((p) => p.bytes)} B, brotli ${sum((p) => p.br)} B, gzip ${sum((p) => p.gzip)} B`);
      },
    },
  };
}
