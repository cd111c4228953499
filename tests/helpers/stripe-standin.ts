/**
 * A local stand-in for Stripe's API, for offline tests: the calls Maildesk makes (checkout
 * sessions create / retrieve / expire, refunds create), in Stripe's wire format (form-encoded
 * requests with bracketed keys, JSON objects back, Idempotency-Key replays), plus the hosted
 * checkout page: its "Pay" button marks the session paid, sends the signed
 * checkout.session.completed notice (signed with the SDK's own test helper) and redirects to
 * success_url. The official SDK talks to it through its host/port/protocol options.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export const STANDIN_SECRET_KEY = 'sk_test_maildesk_standin';
export const STANDIN_WEBHOOK_SECRET = 'whsec_maildesk_standin';

export interface StandinSession {
  id: string;
  object: 'checkout.session';
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  client_reference_id: string | null;
  customer_email: string | null;
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  payment_intent: string | null;
  expires_at: number;
  success_url: string;
  cancel_url: string;
  url: string | null;
  created: number;
  livemode: false;
}

/** Parses Stripe's form encoding (a[b][0][c]=v) into nested objects and arrays. */
export function parseStripeForm(body: string): Record<string, any> {
  const root: Record<string, any> = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let node: any = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]);
      if (last) node[part] = value;
      else node = node[part] ??= nextIsIndex ? [] : {};
    });
  }
  return root;
}

const newId = (prefix: string) => `${prefix}_test_${crypto.randomBytes(12).toString('hex')}`;

export interface StandinOptions {
  /** Where notices go: the app's webhook URL, or a function (in-process apps). */
  webhook?: string | ((payload: string, signature: string) => Promise<unknown>);
}

export async function startStripeStandin(options: StandinOptions = {}) {
  const sessions = new Map<string, StandinSession>();
  const refunds: { id: string; payment_intent: string; amount: number; idempotencyKey: string | undefined }[] = [];
  const replays = new Map<string, string>();
  const requests: { method: string; path: string; idempotencyKey?: string; body: Record<string, any> }[] = [];
  const signer = new Stripe(STANDIN_SECRET_KEY);
  let webhook = options.webhook;
  let base = '';

  /** A notice for a session as Stripe sends it, with a valid (or the given) signature. */
  function notice(type: string, session: StandinSession, secret = STANDIN_WEBHOOK_SECRET) {
    const payload = JSON.stringify({
      id: newId('evt'),
      object: 'event',
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: session },
    });
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret });
    return { payload, signature };
  }

  async function deliver(type: string, session: StandinSession) {
    if (!webhook) return;
    const { payload, signature } = notice(type, session);
    if (typeof webhook === 'function') return webhook(payload, signature);
    const response = await fetch(webhook, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
    return response.json();
  }

  function pay(session: StandinSession) {
    session.status = 'complete';
    session.payment_status = 'paid';
    session.payment_intent ??= newId('pi');
    return session;
  }

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
    res.end(JSON.stringify(body));
  };
  const stripeError = (res: http.ServerResponse, status: number, message: string) =>
    json(res, status, { error: { type: 'invalid_request_error', message } });

  async function api(method: string, path: string, body: Record<string, any>, res: http.ServerResponse) {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const item = body.line_items?.[0];
      const id = newId('cs');
      const session: StandinSession = {
        id,
        object: 'checkout.session',
        amount_total: Number(item?.price_data?.unit_amount ?? 0) * Number(item?.quantity ?? 1),
        currency: String(item?.price_data?.currency ?? ''),
        metadata: body.metadata ?? {},
        client_reference_id: body.client_reference_id ?? null,
        customer_email: body.customer_email ?? null,
        mode: body.mode,
        status: 'open',
        payment_status: 'unpaid',
        payment_intent: null,
        expires_at: Number(body.expires_at ?? Math.floor(Date.now() / 1000) + 86_400),
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        url: `${base}/pay/${id}`,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
      };
      sessions.set(id, session);
      return json(res, 200, session);
    }
    if (method === 'GET' && (m = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(path))) {
      const session = sessions.get(m[1]);
      return session ? json(res, 200, session) : stripeError(res, 404, `No such checkout.session: '${m[1]}'`);
    }
    if (method === 'POST' && (m = /^\/v1\/checkout\/sessions\/([\w]+)\/expire$/.exec(path))) {
      const session = sessions.get(m[1]);
      if (!session) return stripeError(res, 404, `No such checkout.session: '${m[1]}'`);
      if (session.status !== 'open') return stripeError(res, 400, `Only Checkout Sessions with a status of open can be expired.`);
      session.status = 'expired';
      session.url = null;
      json(res, 200, session);
      await deliver('checkout.session.expired', session);
      return;
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const paid = [...sessions.values()].find((s) => s.payment_intent === body.payment_intent && s.payment_status === 'paid');
      if (!paid) return stripeError(res, 400, `No such payment_intent: '${body.payment_intent}'`);
      const refund = { id: newId('re'), object: 'refund', payment_intent: paid.payment_intent!, amount: paid.amount_total, currency: paid.currency, status: 'succeeded' };
      refunds.push({ id: refund.id, payment_intent: refund.payment_intent, amount: refund.amount, idempotencyKey: undefined });
      return json(res, 200, refund);
    }
    return stripeError(res, 404, `Unrecognized request URL (${method}: ${path}).`);
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', base);
    const method = req.method ?? 'GET';
    try {
      let m: RegExpExecArray | null;
      if ((m = /^\/pay\/([\w]+)$/.exec(url.pathname))) {
        const session = sessions.get(m[1]);
        if (!session) return void res.writeHead(404).end('No such session');
        if (method === 'GET') {
          const money = new Intl.NumberFormat('en', { style: 'currency', currency: session.currency.toUpperCase() }).format(session.amount_total / 100);
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return void res.end(
            `<!doctype html><html><head><meta charset="utf-8"><title>Stripe Checkout (test stand-in)</title></head><body style="font-family:sans-serif;max-width:28rem;margin:4rem auto">` +
              `<h1>Test checkout</h1><p>Order ${session.metadata.order_id ?? ''}: <strong data-amount>${money}</strong></p>` +
              (session.status === 'open'
                ? `<form method="post"><button type="submit" style="font-size:1.2rem;padding:.5rem 2rem">Pay</button></form>`
                : `<p>This session is ${session.status}.</p>`) +
              `</body></html>`,
          );
        }
        if (session.status !== 'open') return void res.writeHead(409).end(`Session ${session.status}`);
        pay(session);
        await deliver('checkout.session.completed', session);
        res.writeHead(303, { location: session.success_url });
        return void res.end();
      }
      if (!url.pathname.startsWith('/v1/')) return void res.writeHead(404).end();
      if (req.headers.authorization !== `Bearer ${STANDIN_SECRET_KEY}`) return stripeError(res, 401, 'Invalid API Key provided');
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      const body = method === 'POST' ? parseStripeForm(raw) : Object.fromEntries(url.searchParams);
      requests.push({ method, path: url.pathname, idempotencyKey, body });
      // Stripe replays the first answer to a repeated Idempotency-Key.
      const replayKey = idempotencyKey && `${method} ${url.pathname} ${idempotencyKey}`;
      if (replayKey && replays.has(replayKey)) {
        res.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        return void res.end(replays.get(replayKey));
      }
      if (replayKey) {
        const end = res.end.bind(res);
        res.end = ((chunk: unknown, ...rest: unknown[]) => {
          if (typeof chunk === 'string' && res.statusCode === 200) replays.set(replayKey, chunk);
          return (end as (...args: unknown[]) => http.ServerResponse)(chunk, ...rest);
        }) as typeof res.end;
      }
      await api(method, url.pathname, body, res);
      if (url.pathname === '/v1/refunds' && refunds.length) refunds[refunds.length - 1].idempotencyKey ??= idempotencyKey;
    } catch (error) {
      if (!res.headersSent) stripeError(res, 500, String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;

  return {
    port,
    url: base,
    sessions,
    refunds,
    requests,
    /** The app's environment for using this stand-in. */
    env: {
      STRIPE_SECRET_KEY: STANDIN_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: STANDIN_WEBHOOK_SECRET,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(port),
      STRIPE_API_PROTOCOL: 'http',
    },
    setWebhook(target: StandinOptions['webhook']) {
      webhook = target;
    },
    /** Marks a session paid as the checkout page would, without sending its notice. */
    pay(sessionId: string) {
      return pay(sessions.get(sessionId)!);
    },
    notice,
    deliver,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type StripeStandin = Awaited<ReturnType<typeof startStripeStandin>>;
