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

/**
 * The headers of an answer to a URL. Set as a request comes in (one hook with the request id,
 * server/app.ts), so that a call which sets its own (a downloaded file's sandboxing policy or
 * caching) replaces them, and the answer needs no hook on its way out.
 */
export function securityHeadersOf(publicUrl: string): (url: string) => Record<string, string> {
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
  return (url) => (url.startsWith('/api/') ? apiAnswer : pageAnswer);
}
