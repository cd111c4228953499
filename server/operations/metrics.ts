/**
 * GET /metrics in Prometheus's text format (prom-client, a registry of the app's own): requests
 * by call (the route's pattern, never the raw URL) and status with their latency, sign-in
 * failures, the job queue, mail sent and failed, the mail stores, the database pool. Queue and mail figures are
 * read from the database when scraped, so every instance reports the same; requests and sign-in
 * failures are this instance's.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sql } from 'kysely';
import type { Services } from '../core/services.js';
import { daysAgo } from '../core/time.js';

/** The sign-in calls of the three areas (password, e-mailed code, second step, passkey). */
const signInCall = /^\/api\/(admin|manage|mail)\/login\/(login|login_by_verify_code|second_factor|passkey)$/;

export function metricsOf(services: Services) {
  const registry = new Registry();
  const latency = new Histogram({
    name: 'maildesk_http_request_duration_seconds',
    help: 'Time to answer, by call (route pattern), method and status.',
    labelNames: ['call', 'method', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [],
  });
  // The histogram's counts, read when scraped: one observation per request instead of two.
  new Counter({
    name: 'maildesk_http_requests_total',
    help: 'Requests answered, by call (route pattern), method and status.',
    labelNames: ['call', 'method', 'status'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const { metricName, labels, value } of (await latency.get()).values) {
        if (metricName === 'maildesk_http_request_duration_seconds_count') this.inc(labels as Record<'call' | 'method' | 'status', string>, value);
      }
    },
  });
  registry.registerMetric(latency);
  const signInFailures = new Counter({ name: 'maildesk_sign_in_failures_total', help: 'Sign-ins refused (wrong password or code, throttled, …), by area.', labelNames: ['area'], registers: [registry] });

  new Gauge({
    name: 'maildesk_jobs',
    help: 'Jobs by name and state: queued (waiting, or due later), active (running), failed (kept after their last try).',
    labelNames: ['name', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const c of await services.jobs.counts()) {
        this.set({ name: c.name, state: 'queued' }, c.queued);
        this.set({ name: c.name, state: 'active' }, c.active);
        this.set({ name: c.name, state: 'failed' }, c.failed);
      }
    },
  });
  new Gauge({
    name: 'maildesk_jobs_oldest_waiting_seconds',
    help: 'How long the job that has waited longest since it was due has waited (0: none waits).',
    registers: [registry],
    async collect() {
      this.set(await services.jobs.oldestWaitingSeconds());
    },
  });
  new Gauge({
    name: 'maildesk_mail_messages_last_day',
    help: 'Outgoing messages of the last 24 hours in the send log, by status (sent, failed, pending).',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await services.db
        .selectFrom('email_send_log')
        .select(['status', sql<number>`count(*)`.as('n')])
        .where('created_at', '>=', daysAgo(1))
        .groupBy('status')
        .execute();
      for (const status of ['sent', 'failed', 'pending']) this.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
    },
  });
  // Each mail store (a row per mail host) as last measured: where the mail is, and whether a store is draining or down.
  for (const [name, help, column] of [
    ['maildesk_mail_store_bytes', 'Bytes in use on each mail store, as Dovecot wrote them back (measured every five minutes), by store and state (active, draining, down).', 'used_bytes'],
    ['maildesk_mail_store_mailboxes', 'Mailboxes on each mail store (measured every five minutes), by store and state (active, draining, down).', 'mailboxes'],
  ] as const) {
    new Gauge({
      name,
      help,
      labelNames: ['store', 'state'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const store of await services.db.selectFrom('mail_store').select(['name', 'state', column]).execute()) this.set({ store: store.name, state: store.state }, Number(store[column]));
      },
    });
  }
  new Gauge({
    name: 'maildesk_db_pool_connections',
    help: 'Database connections of this instance: in_use, idle, waiting (requests waiting for one) and max. SQLite: one writer and one reader, always open.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const use = services.database.poolUse?.();
      if (!use) {
        this.set({ state: 'max' }, 2);
        return;
      }
      this.set({ state: 'in_use' }, use.inUse);
      this.set({ state: 'idle' }, use.idle);
      this.set({ state: 'waiting' }, use.waiting);
      this.set({ state: 'max' }, use.max);
    },
  });

  /** Counts a request once it is answered. */
  function observe(request: FastifyRequest, reply: FastifyReply) {
    const call = request.routeOptions.url ?? 'unmatched';
    latency.observe({ call, method: request.method, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    const signIn = signInCall.exec(call);
    if (signIn && reply.statusCode >= 400) signInFailures.inc({ area: signIn[1] });
  }

  return { registry, observe };
}

/** Whether a scrape may read the figures: the bearer token, or an address METRICS_ALLOW lists. */
export function mayScrape(request: FastifyRequest, config: Services['config']): boolean {
  if (config.metricsAllow.includes(request.ip)) return true;
  if (!config.metricsToken) return false;
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(String(request.headers.authorization ?? ''));
  if (!match) return false;
  const given = crypto.createHash('sha256').update(match[1]).digest();
  const expected = crypto.createHash('sha256').update(config.metricsToken).digest();
  return crypto.timingSafeEqual(given, expected);
}

export function registerMetrics(app: FastifyInstance, services: Services) {
  const metrics = metricsOf(services);
  const on = !!services.config.metricsToken || services.config.metricsAllow.length > 0;
  // Figures nobody may read are not counted: without METRICS_TOKEN or METRICS_ALLOW no request pays for them.
  // A callback hook, not an async one: a promise per request costs.
  if (on) {
    app.addHook('onResponse', (request, reply, done) => {
      metrics.observe(request, reply);
      done();
    });
  }
  app.get('/metrics', async (request, reply) => {
    // Off unless configured: as if there were no such page.
    if (!on) return reply.status(404).type('text/plain').send('Not found\n');
    if (!mayScrape(request, services.config)) return reply.status(401).header('www-authenticate', 'Bearer').type('text/plain').send('Unauthorized\n');
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });
}
