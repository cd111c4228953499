/**
 * Headers on every answer. Sessions live in localStorage (the specification wants that), so
 * any script that runs on our pages could read them: a strict Content-Security-Policy is the
 * main defence. Scripts come only from our own files (the built app has no inline script).
 *
 * Styles: emotion (MUI) writes <style> elements at run time and MUI and react-admin set
 * style="" attributes (positions of menus and popovers, transitions). A nonce can authorise
 * the former but never the latter, and a hash cannot cover values computed at run time, so
 * style-src keeps 'unsafe-inline'. Injected CSS cannot run code, and with img-src, font-src
 * and connect-src limited to our own origin it cannot send anything elsewhere either.
 */
import type { FastifyInstance } from 'fastify';
import { baseHeaders } from './client-errors.js';

export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * An answer under /api/ is data (JSON, or a file to download), never a document a browser
 * renders with our pages' scripts: it needs no sources at all, only what stops sniffing,
 * framing, referrers and caching (OWASP's REST headers). Fewer and shorter headers on every call.
 */
export const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'";

export function securityHeaders(app: FastifyInstance, publicUrl: string) {
  // Browsers ignore HSTS over plain HTTP; only an https PUBLIC_URL makes it meaningful.
  const transport: Record<string, string> = publicUrl.startsWith('https://') ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {};
  const pageAnswer: Record<string, string> = {
    'content-security-policy': contentSecurityPolicy,
    'x-content-type-options': baseHeaders['x-content-type-options'],
    'x-frame-options': 'DENY',
    'referrer-policy': baseHeaders['referrer-policy'],
    'cross-origin-opener-policy': 'same-origin',
    ...transport,
  };
  // Answers under /api/ carry sessions and customers' data: never kept by a browser or proxy.
  const apiAnswer: Record<string, string> = {
    'content-security-policy': apiContentSecurityPolicy,
    'x-content-type-options': baseHeaders['x-content-type-options'],
    'x-frame-options': 'DENY',
    // An answer opened in a browser (an attachment, the OpenAPI description) names no API URL, ids in it, to a link followed from it.
    'referrer-policy': baseHeaders['referrer-policy'],
    'cache-control': baseHeaders['cache-control'],
    ...transport,
  };
  const apiHeaders = Object.entries(apiAnswer);
  // A callback hook, not an async one: it runs on every answer, and a promise per answer costs.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.url.startsWith('/api/')) reply.headers(pageAnswer);
    // A call that sets its own policy (a downloaded file: sandboxed) keeps its headers; the others are added.
    else if (reply.hasHeader('content-security-policy')) {
      for (const [name, value] of apiHeaders) if (!reply.hasHeader(name)) reply.header(name, value);
    } else reply.headers(apiAnswer);
    done(null, payload);
  });
}
