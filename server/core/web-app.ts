/**
 * The built web app (dist/web) over the wire. Vite names every file under /assets after its
 * content, so a browser may keep those for a year without asking again; index.html names the
 * current ones, so it is revalidated on every visit (ETag: a 304 when unchanged). Each file is
 * sent as the brotli or gzip copy the build made of it (vite-plugins/precompress.ts) when the
 * browser accepts one, else as it is; answers vary by Accept-Encoding for caches between.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const hashedFilesCacheControl = 'public, max-age=31536000, immutable';
export const pageCacheControl = 'no-cache';

export type PageFallback = (request: FastifyRequest, reply: FastifyReply) => FastifyReply;

/**
 * Serves the files of `webRoot`; returns what answers a GET of a path no file matches (the app's
 * routes: /admin/…, /manage/…, its own not-found page), or undefined when there is no built app.
 */
export async function serveWebApp(app: FastifyInstance, webRoot: string): Promise<PageFallback | undefined> {
  if (!fs.existsSync(path.join(webRoot, 'index.html'))) return undefined;
  const hashedFiles = path.join(path.resolve(webRoot), 'assets') + path.sep;
  await app.register(fastifyStatic, {
    root: webRoot,
    // One route per file, listed at start (the build does not change under a running server).
    wildcard: false,
    preCompressed: true,
    // The copies are reached through their file's URL, never their own.
    globIgnore: ['**/*.br', '**/*.gz'],
    cacheControl: false,
    setHeaders(res, file) {
      res.setHeader('cache-control', path.resolve(file).startsWith(hashedFiles) ? hashedFilesCacheControl : pageCacheControl);
      res.setHeader('vary', 'Accept-Encoding');
    },
  });
  return (request, reply) =>
    // A script or stylesheet that is not there (an old page asking for a file of a previous
    // build) is missing, not a page: an HTML answer would only fail as a script.
    request.url.startsWith('/assets/')
      ? reply.code(404).header('cache-control', pageCacheControl).type('text/plain; charset=utf-8').send('Not found')
      : reply.type('text/html').sendFile('index.html');
}
