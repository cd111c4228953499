/**
 * Domain health: the scheduled DNS watch against the tests' own DNS server (a record removed is
 * noticed, its owner e-mailed once per break, the history kept, putting it back clears it; a name
 * server that fails or does not answer breaks nothing), what the e-mail and the watch's view say
 * (names in the owner's language, since when, when next), a DKIM rotation finished by the watch,
 * MTA-STS served for the right host only and its mode switched, who may see a domain's history,
 * and how long it is kept.
 */
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { now, nowMs } from '../../server/core/time.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { operatorWithRole, signUpCustomer, teamMemberOf, type CustomerSession } from '../helpers/fixtures.js';
import { mailFixtures } from '../helpers/mail-fixtures.js';

let t: TestApp;
let dns: DnsServer;
let front: Awaited<ReturnType<typeof failingFront>>;
let mail: ReturnType<typeof mailFixtures>;
let a: CustomerSession;
let b: CustomerSession;
const HOUR = 3_600_000;

/**
 * Between the app and the test's zone: names under a domain said to fail get SERVFAIL, or no
 * answer at all (the resolver times out), as from a broken or unreachable name server; every
 * other query goes on to the zone.
 */
async function failingFront(upstream: string) {
  const failing = new Map<string, 'servfail' | 'silent'>();
  const [upstreamHost, upstreamPort] = upstream.split(':');
  const socket = dgram.createSocket('udp4');
  let open = true;
  socket.on('message', (message, client) => {
    const query = dnsPacket.decode(message);
    const name = (query.questions?.[0]?.name ?? '').toLowerCase().replace(/\.$/, '');
    const mode = [...failing].find(([domain]) => name === domain || name.endsWith(`.${domain}`))?.[1];
    if (mode === 'silent') return;
    if (mode === 'servfail') {
      socket.send(dnsPacket.encode({ id: query.id, type: 'response', flags: 2, questions: query.questions }), client.port, client.address); // rcode 2: SERVFAIL
      return;
    }
    const relay = dgram.createSocket('udp4');
    relay.on('error', () => relay.close());
    relay.once('message', (reply) => {
      relay.close();
      // The front may have closed meanwhile (the file's tests are over).
      if (open) socket.send(reply, client.port, client.address);
    });
    relay.send(message, Number(upstreamPort), upstreamHost);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    fail: (domain: string, how: 'servfail' | 'silent') => void failing.set(domain, how),
    answer: (domain: string) => void failing.delete(domain),
    close: () => new Promise<void>((resolve) => ((open = false), socket.close(() => resolve()))),
  };
}

beforeAll(async () => {
  dns = await startDnsServer();
  front = await failingFront(dns.address);
  // The clock moves a lot here: sessions outlast it.
  t = await startTestApp({ DNS_SERVERS: front.address, MAIL_HOSTNAME: 'mx.maildesk.test', DNS_WATCH_HOURS: '1', SESSION_IDLE_MINUTES: '10000000', SESSION_ABSOLUTE_HOURS: '1000000' });
  mail = mailFixtures(t);
  [a, b] = [await signUpCustomer(t), await signUpCustomer(t)];
});
afterAll(async () => {
  t.resetClock();
  await t.close();
  await front.close();
  await dns.close();
});

interface Record {
  kind: string;
  type: string;
  host: string;
  value: string;
  priority?: number;
  status: string;
  /** In the watch's view: what DNS answered, and since when the record is in its state. */
  found?: string;
  since?: string;
}

const dnsPage = async (id: number, token = a.token) => (await t.get('/api/admin/domain/dns', { id }, { token })).data.records as Record[];
const watchView = async (id: number, token = a.token) => (await t.get('/api/admin/domain/dns_watch', { id }, { token })).data;
const historyOf = async (id: number, token = a.token) => (await t.get('/api/admin/domain/dns_history', { id }, { token })).data;
/** The schedule's run, after the interval (and its random tenth) has passed. */
async function watchRun() {
  await t.moveClock(1.2 * HOUR);
  await t.services.jobs.runSchedule('domain-health.watch');
}
const mailsTo = async (to: string) => (await t.outbox()).filter((m) => m.to === to);

/** An active domain of customer A with every record of the DNS page published. */
async function publishedDomain(customer = a) {
  const domain = await mail.activeDomain(customer);
  for (const record of await dnsPage(domain.id, customer.token)) dns.publish(record);
  return { domain, records: Object.fromEntries((await dnsPage(domain.id, customer.token)).map((r) => [r.kind, r])) };
}
const recordOf = (view: { records: Record[] }, kind: string) => view.records.find((r) => r.kind === kind);
const selectorOf = (id: number) => t.get('/api/admin/domain/get', { id }, { token: a.token }).then((r) => r.data.dkim_selector as string);

describe('the DNS page proposes MTA-STS and TLS reporting', () => {
  it('When a domain is shown, then its records include _mta-sts with the policy id, mta-sts.<domain> to the panel and _smtp._tls to the reports address', async () => {
    const { domain, records } = await publishedDomain();
    expect(records.mta_sts).toMatchObject({ type: 'TXT', host: `_mta-sts.${domain.name}`, status: 'ok' });
    expect(records.mta_sts.value).toMatch(/^v=STSv1; id=[a-z0-9]{1,32}$/);
    expect(records.mta_sts_host).toMatchObject({ type: 'CNAME', host: `mta-sts.${domain.name}`, value: 'maildesk.test', status: 'ok' });
    expect(records.tls_rpt).toMatchObject({ type: 'TXT', host: `_smtp._tls.${domain.name}`, value: 'v=TLSRPTv1; rua=mailto:reports@mx.maildesk.test', status: 'ok' });
  });

  it('When mta-sts.<domain> has A records with the panel\'s address instead of a CNAME, then it counts as pointing at the panel', async () => {
    const { domain } = await publishedDomain();
    dns.clear(`mta-sts.${domain.name}`);
    dns.host('maildesk.test', '192.0.2.80');
    dns.host(`mta-sts.${domain.name}`, '192.0.2.80');
    expect((await dnsPage(domain.id)).find((r) => r.kind === 'mta_sts_host')).toMatchObject({ status: 'ok' });
    dns.host(`mta-sts.${domain.name}`, '192.0.2.99');
    expect((await dnsPage(domain.id)).find((r) => r.kind === 'mta_sts_host')).toMatchObject({ status: 'wrong' });
  });
});

describe('the scheduled DNS watch', () => {
  it('When a published record is removed, then the watch notices it, e-mails the owner exactly once, keeps the history; put back, it clears', async () => {
    const { domain, records } = await publishedDomain();
    const mailsBefore = (await mailsTo(a.email)).length;
    await watchRun();
    // The first look is the baseline: every record correct, nothing to tell.
    const baseline = await watchView(domain.id);
    expect(baseline.records.map((r: Record) => [r.kind, r.status]).sort()).toEqual(
      ['dkim', 'dmarc', 'mta_sts', 'mta_sts_host', 'mx', 'spf', 'tls_rpt', 'verification'].map((kind) => [kind, 'ok']),
    );
    expect(baseline.checked_at).toBeTruthy();
    expect((await historyOf(domain.id)).total).toBe(0);

    dns.clear(records.dkim.host);
    dns.txt(records.dmarc.host, 'v=DMARC1; p=bogus');
    await watchRun();
    const mails = (await mailsTo(a.email)).slice(mailsBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain(domain.name_unicode);
    expect(mails[0].text).toContain(records.dkim.host);
    expect(mails[0].text).toContain(`_dmarc.${domain.name}`);
    expect(mails[0].text).toContain(`/admin/domain/update?id=${domain.id}`);
    const broken = await historyOf(domain.id);
    expect(broken.total).toBe(2);
    expect(broken.list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'dkim', status_before: 'ok', status: 'missing', notified: true }),
        expect.objectContaining({ kind: 'dmarc', status_before: 'ok', status: 'wrong', found: 'v=DMARC1; p=bogus', notified: true }),
      ]),
    );
    expect((await watchView(domain.id)).records.find((r: Record) => r.kind === 'dkim').status).toBe('missing');

    // Still broken at the next look: no second e-mail, no new history.
    await watchRun();
    expect((await mailsTo(a.email)).slice(mailsBefore)).toHaveLength(1);
    expect((await historyOf(domain.id)).total).toBe(2);

    dns.publish(records.dkim);
    dns.publish(records.dmarc);
    await watchRun();
    const cleared = await historyOf(domain.id);
    expect(cleared.total).toBe(4);
    expect(cleared.list.slice(0, 2)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'dkim', status_before: 'missing', status: 'ok', notified: false }),
        expect.objectContaining({ kind: 'dmarc', status_before: 'wrong', status: 'ok', notified: false }),
      ]),
    );
    expect((await watchView(domain.id)).records.every((r: Record) => r.status === 'ok')).toBe(true);
    expect((await mailsTo(a.email)).slice(mailsBefore)).toHaveLength(1);

    // Broken again later: a new break, a new e-mail.
    dns.clear(records.dkim.host);
    await watchRun();
    expect((await mailsTo(a.email)).slice(mailsBefore)).toHaveLength(2);
  });

  it('When a broken record goes from one broken state to another, then the history has the change but no second e-mail; only a break from correct is e-mailed', async () => {
    const { domain, records } = await publishedDomain();
    await watchRun();
    const mailsBefore = (await mailsTo(a.email)).length;
    dns.clear(records.dkim.host);
    await watchRun();
    expect((await mailsTo(a.email)).slice(mailsBefore)).toHaveLength(1);

    // Missing, then published with another key: still broken, differently.
    dns.txt(records.dkim.host, 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnotthekey');
    await watchRun();
    expect((await historyOf(domain.id)).list[0]).toMatchObject({ kind: 'dkim', status_before: 'missing', status: 'wrong', notified: false });
    expect((await mailsTo(a.email)).slice(mailsBefore)).toHaveLength(1);

    // Put right, then wrong: a break from correct, e-mailed.
    dns.publish(records.dkim);
    await watchRun();
    dns.txt(records.dkim.host, 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnotthekey');
    await watchRun();
    expect((await historyOf(domain.id)).list[0]).toMatchObject({ kind: 'dkim', status_before: 'ok', status: 'wrong', notified: true });
    expect((await mailsTo(a.email)).slice(mailsBefore)).toHaveLength(2);
  });

  it('When the name server answers SERVFAIL, or nothing, for a domain, then its records keep the state last seen: no break, no e-mail, no history; answering again, a record gone meanwhile is a break, e-mailed once', async () => {
    const { domain, records } = await publishedDomain();
    await watchRun();
    const mailsBefore = (await mailsTo(a.email)).length;
    const unchanged = async () => {
      expect((await watchView(domain.id)).records.every((r: Record) => r.status === 'ok')).toBe(true);
      expect((await historyOf(domain.id)).total).toBe(0);
      expect((await mailsTo(a.email)).slice(mailsBefore)).toHaveLength(0);
    };
    try {
      front.fail(domain.name, 'servfail');
      // What the DNS page shows meanwhile: not looked up, rather than missing.
      expect((await dnsPage(domain.id)).find((r) => r.kind === 'dkim')).toMatchObject({ status: 'unchecked' });
      await watchRun();
      await unchanged();
      front.fail(domain.name, 'silent');
      await watchRun();
      await unchanged();
      dns.clear(records.dkim.host);
    } finally {
      front.answer(domain.name);
    }
    await watchRun();
    expect((await historyOf(domain.id)).list).toEqual([expect.objectContaining({ kind: 'dkim', status_before: 'ok', status: 'missing', notified: true })]);
    expect((await mailsTo(a.email)).slice(mailsBefore)).toHaveLength(1);
  });

  it('When a domain is not due, or not active, then the run leaves it alone', async () => {
    const { domain } = await publishedDomain();
    await watchRun();
    const first = (await watchView(domain.id)).checked_at;
    await t.services.jobs.runSchedule('domain-health.watch');
    expect((await watchView(domain.id)).checked_at).toBe(first);
    const pending = await mail.pendingDomain(a);
    await watchRun();
    expect(await watchView(pending.id)).toMatchObject({ watched: false, checked_at: null, records: [] });
    expect(await t.post('/api/admin/domain/dns_check', { id: pending.id }, { token: a.token })).toMatchObject({ code: 40900, message: 'error.domain_not_watched', params: { domain: pending.name_unicode } });
  });

  it('When the customer checks now, then the watch looks at once and a record put back is cleared without waiting', async () => {
    const { domain, records } = await publishedDomain();
    await t.post('/api/admin/domain/dns_check', { id: domain.id }, { token: a.token });
    dns.clear(records.spf.host);
    const now = await t.post('/api/admin/domain/dns_check', { id: domain.id }, { token: a.token });
    expect(now.data.records.find((r: Record) => r.kind === 'spf')).toMatchObject({ status: 'missing' });
    dns.publish(records.spf);
    dns.publish(records.mx);
    const back = await t.post('/api/admin/domain/dns_check', { id: domain.id }, { token: a.token });
    expect(back.data.records.find((r: Record) => r.kind === 'spf')).toMatchObject({ status: 'ok' });
    expect((await historyOf(domain.id)).list[0]).toMatchObject({ kind: 'spf', status_before: 'missing', status: 'ok' });
  });

  it('When a DKIM rotation\'s next key has been seen published on two checks, then the watch switches signing to it', async () => {
    const { domain } = await publishedDomain();
    const prepared = await t.post('/api/admin/domain/dkim_rotate', { id: domain.id }, { token: a.token });
    const next = (await dnsPage(domain.id)).find((r) => r.kind === 'dkim_next')!;
    await watchRun();
    expect((await watchView(domain.id)).records.find((r: Record) => r.kind === 'dkim_next')).toMatchObject({ status: 'missing' });
    dns.publish(next);
    await watchRun();
    // Seen once: not yet.
    expect((await t.get('/api/admin/domain/get', { id: domain.id }, { token: a.token })).data.dkim_selector).not.toBe(prepared.data.dkim_next_selector);
    await watchRun();
    expect((await t.get('/api/admin/domain/get', { id: domain.id }, { token: a.token })).data.dkim_selector).toBe(prepared.data.dkim_next_selector);
    const log = await t.services.db.selectFrom('log').select(['action', 'actor_type']).where('target_type', '=', 'domain').where('target_id', '=', domain.id).where('action', '=', 'dkim_switch').execute();
    expect(log).toHaveLength(1);
    // The next key's record is the current one now; the watch follows it.
    await watchRun();
    const view = await watchView(domain.id);
    expect(view.records.find((r: Record) => r.kind === 'dkim')).toMatchObject({ host: next.host, status: 'ok' });
    expect(view.records.some((r: Record) => r.kind === 'dkim_next')).toBe(false);
  });

  it('When the due domains are read, then the read is an index range (status, dns_watch_at), not a walk of every domain', async () => {
    const { db, dialect } = t.services;
    const query = db.selectFrom('domain').select(['id', 'dns_watch_at']).where('status', '=', 'active').where('dns_watch_at', '<=', new Date().toISOString()).orderBy('dns_watch_at').limit(200).compile();
    if (dialect === 'sqlite') {
      const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
      const plan = rows.map((r) => r.detail).join('\n');
      expect(plan).toMatch(/USING (COVERING )?INDEX domain_status_dns_watch_at_idx/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    } else {
      const plan = await db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return (await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]))).rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toMatch(/Index (Only )?Scan using domain_status_dns_watch_at_idx/);
    }
  });
});

describe('MTA-STS', () => {
  const policyAt = (host: string) => t.app.inject({ method: 'GET', url: '/.well-known/mta-sts.txt', headers: { host } });

  it('When a sender fetches the policy from mta-sts.<domain>, then it names the MX host, the mode and max_age, and its id is the one in DNS', async () => {
    const { domain, records } = await publishedDomain();
    const reply = await policyAt(`mta-sts.${domain.name}`);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/plain/);
    expect(reply.body).toBe('version: STSv1\r\nmode: testing\r\nmx: mx.maildesk.test\r\nmax_age: 604800\r\n');
    // The host is case-insensitive and may carry a port.
    expect((await policyAt(`MTA-STS.${domain.name.toUpperCase()}:443`)).statusCode).toBe(200);
    const watch = await watchView(domain.id);
    expect(records.mta_sts.value).toBe(`v=STSv1; id=${watch.mta_sts.id}`);
    expect(watch.mta_sts).toMatchObject({ mode: 'testing', policy_url: `https://mta-sts.${domain.name}/.well-known/mta-sts.txt` });
  });

  it('When the host is not mta-sts.<a domain in service>, then the answer is a bare 404', async () => {
    const { domain } = await publishedDomain();
    const pending = await mail.pendingDomain(a);
    const suspended = await mail.activeDomain(a);
    await t.post('/api/manage/domain/update', { id: suspended.id, status: 'suspended' }, { token: await mail.operator() });
    for (const host of ['maildesk.test', domain.name, `autoconfig.${domain.name}`, 'mta-sts.unknown-domain.example', `mta-sts.${pending.name}`, `mta-sts.${suspended.name}`, 'mta-sts.', 'mta-sts.bad_name!.example']) {
      const reply = await policyAt(host);
      expect(reply.statusCode, host).toBe(404);
      expect(reply.body, host).toBe('Not Found');
    }
  });

  it('When the customer enforces the policy, then the file says enforce, the id changes, and the watch tells once that the _mta-sts record must follow', async () => {
    const { domain, records } = await publishedDomain();
    await watchRun();
    const mailsBefore = (await mailsTo(a.email)).length;
    const switched = await t.post('/api/admin/domain/mta_sts_mode', { id: domain.id, mode: 'enforce' }, { token: a.token });
    expect(switched.data).toMatchObject({ mode: 'enforce', record: { type: 'TXT', host: `_mta-sts.${domain.name}` } });
    expect(switched.data.record.value).not.toBe(records.mta_sts.value);
    expect((await policyAt(`mta-sts.${domain.name}`)).body).toContain('mode: enforce\r\n');
    const page = (await dnsPage(domain.id)).find((r) => r.kind === 'mta_sts')!;
    expect(page).toMatchObject({ value: switched.data.record.value, status: 'wrong' });
    await watchRun();
    const told = (await mailsTo(a.email)).slice(mailsBefore);
    expect(told).toHaveLength(1);
    expect(told[0].text).toContain(switched.data.record.value);
    dns.publish(page);
    await watchRun();
    expect((await historyOf(domain.id)).list[0]).toMatchObject({ kind: 'mta_sts', status: 'ok' });
    const log = await t.services.db.selectFrom('log').select(['before', 'after']).where('action', '=', 'mta_sts_mode').where('target_id', '=', domain.id).executeTakeFirstOrThrow();
    expect(JSON.parse(String(log.after))).toMatchObject({ mta_sts_mode: 'enforce' });
    // Back to testing is allowed too; a mode that does not exist is refused and changes nothing.
    expect(await t.post('/api/admin/domain/mta_sts_mode', { id: domain.id, mode: 'strict' }, { token: a.token })).toMatchObject({ code: 40000, errors: { mode: {} } });
    expect((await watchView(domain.id)).mta_sts.mode).toBe('enforce');
    expect((await t.post('/api/admin/domain/mta_sts_mode', { id: domain.id, mode: 'testing' }, { token: a.token })).data.mode).toBe('testing');
  });
});

describe('who may see a domain\'s health', () => {
  it('When another customer, or a team member without the domain, asks for its history or switches its mode, then it is not found and nothing changes', async () => {
    const { domain } = await publishedDomain();
    for (const token of [b.token, (await teamMemberOf(t, a, { domain_ids: [] })).token]) {
      expect((await t.get('/api/admin/domain/dns_history', { id: domain.id }, { token })).code).toBe(40400);
      expect((await t.get('/api/admin/domain/dns_watch', { id: domain.id }, { token })).code).toBe(40400);
      expect((await t.post('/api/admin/domain/mta_sts_mode', { id: domain.id, mode: 'enforce' }, { token })).code).toBe(40400);
      expect((await t.post('/api/admin/domain/dns_check', { id: domain.id }, { token })).code).toBe(40400);
    }
    expect((await watchView(domain.id)).mta_sts.mode).toBe('testing');
    // Operators see every domain's.
    expect((await t.get('/api/manage/domain/dns_history', { id: domain.id }, { token: await mail.operator() })).code).toBe(0);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Publishes the next DKIM key of a rotation the customer starts now; answers its record. */
async function rotationPublished(id: number, token = a.token) {
  await t.post('/api/admin/domain/dkim_rotate', { id }, { token });
  const next = (await dnsPage(id, token)).find((r) => r.kind === 'dkim_next')!;
  dns.publish(next);
  return next;
}

describe('the e-mail about broken records', () => {
  /** Every watched record of a domain correct, then all of them gone: the one e-mail that says so. */
  async function everyRecordBroken(customer: CustomerSession) {
    const { domain, records } = await publishedDomain(customer);
    const next = await rotationPublished(domain.id, customer.token);
    await watchRun();
    const before = (await mailsTo(customer.email)).length;
    for (const record of [...Object.values(records), next]) dns.clear(record.host);
    await watchRun();
    const mails = (await mailsTo(customer.email)).slice(before);
    expect(mails).toHaveLength(1);
    return mails[0];
  }
  // One line per record, "- <name>: <advice>", in the order of the DNS page.
  const namesIn = (text: string) => text.split('\n').filter((line) => line.startsWith('- ')).map((line) => line.slice(2, line.indexOf(':')));

  it('When every watched record of an English-speaking customer breaks, then the e-mail names each on its own line, in English', async () => {
    const told = await everyRecordBroken(a);
    expect(told.subject).toContain('9 record(s)');
    expect(namesIn(told.text)).toEqual(['Ownership', 'MX', 'SPF', 'DKIM', 'DKIM (next key)', 'DMARC', 'MTA-STS', 'MTA-STS host', 'TLS reporting']);
  });

  it('When every watched record of a customer who reads Chinese breaks, then the e-mail names each on its own line, in Chinese', async () => {
    const c = await signUpCustomer(t);
    expect((await t.post('/api/admin/me/update_locale', { locale: 'zh' }, { token: c.token })).code).toBe(0);
    const told = await everyRecordBroken(c);
    expect(told.subject).toContain('9 条记录');
    expect(namesIn(told.text)).toEqual(['所有权验证', 'MX', 'SPF', 'DKIM', 'DKIM（新密钥）', 'DMARC', 'MTA-STS', 'MTA-STS 主机', 'TLS 报告']);
  });
});

describe('what the watch remembers of a record', () => {
  it('When a wrong record shows another wrong value, then the history has the change and the record keeps the time it broke; put back, the pages of the history hold each change once', async () => {
    const { domain, records } = await publishedDomain();
    await watchRun();
    const mailsBefore = (await mailsTo(a.email)).length;
    dns.txt(records.dmarc.host, 'v=DMARC1; p=bogus');
    await watchRun();
    const broke = await watchView(domain.id);
    expect(recordOf(broke, 'dmarc')).toMatchObject({ status: 'wrong', since: broke.checked_at });

    // Two DMARC records: still wrong, differently; both are shown, as DNS answers them.
    dns.txt(records.dmarc.host, 'v=DMARC1; p=bogus', 'v=DMARC1; p=other');
    await watchRun();
    const still = await watchView(domain.id);
    expect(still.checked_at).not.toBe(broke.checked_at);
    expect(recordOf(still, 'dmarc')).toMatchObject({ status: 'wrong', found: 'v=DMARC1; p=bogus | v=DMARC1; p=other', since: broke.checked_at });
    expect((await historyOf(domain.id)).list[0]).toMatchObject({ kind: 'dmarc', status_before: 'wrong', found_before: 'v=DMARC1; p=bogus', status: 'wrong', found: 'v=DMARC1; p=bogus | v=DMARC1; p=other', notified: false });
    expect((await mailsTo(a.email)).slice(mailsBefore)).toHaveLength(1);

    dns.publish(records.dmarc);
    await watchRun();
    const page = (n: number) => t.get('/api/admin/domain/dns_history', { id: domain.id, page: n, page_size: 2 }, { token: a.token }).then((r) => r.data);
    const [first, second] = [await page(1), await page(2)];
    expect(first).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(first.list.map((c: { status_before: string; status: string }) => `${c.status_before}→${c.status}`)).toEqual(['wrong→ok', 'wrong→wrong']);
    expect(second.list.map((c: { status_before: string; status: string }) => `${c.status_before}→${c.status}`)).toEqual(['ok→wrong']);
  });

  it('When a correct record changes but stays correct, then the history has the change, not a break: no e-mail', async () => {
    const { domain, records } = await publishedDomain();
    await watchRun();
    const mailsBefore = (await mailsTo(a.email)).length;
    const since = recordOf(await watchView(domain.id), 'dmarc')!.since;
    // No policy chosen: quarantine is as correct as none.
    dns.txt(records.dmarc.host, records.dmarc.value.replace('p=none', 'p=quarantine'));
    await watchRun();
    expect((await historyOf(domain.id)).list).toEqual([expect.objectContaining({ kind: 'dmarc', status_before: 'ok', status: 'ok', notified: false })]);
    expect(recordOf(await watchView(domain.id), 'dmarc')).toMatchObject({ status: 'ok', since });
    expect((await mailsTo(a.email)).slice(mailsBefore)).toHaveLength(0);
  });

  it('When signing moves to a key whose record is missing too, then the history has the record at its new host, missing as before', async () => {
    const { domain, records } = await publishedDomain();
    dns.clear(records.dkim.host);
    await watchRun();
    const next = await rotationPublished(domain.id);
    expect((await t.post('/api/admin/domain/dkim_rotate', { id: domain.id }, { token: a.token })).data).toMatchObject({ switched: true });
    dns.clear(next.host);
    await watchRun();
    expect((await historyOf(domain.id)).list[0]).toMatchObject({ kind: 'dkim', host: next.host, status_before: 'missing', status: 'missing' });
    expect(recordOf(await watchView(domain.id), 'dkim')).toMatchObject({ host: next.host, status: 'missing' });
  });

  it('When the MTA-STS mode changes while DNS has an unrelated wrong _mta-sts record, then the watch shows the new value to publish, and no change in DNS', async () => {
    const { domain, records } = await publishedDomain();
    dns.txt(records.mta_sts.host, 'v=STSv1; id=someoldid');
    await watchRun();
    const changes = (await historyOf(domain.id)).total;
    const switched = await t.post('/api/admin/domain/mta_sts_mode', { id: domain.id, mode: 'enforce' }, { token: a.token });
    await watchRun();
    expect(recordOf(await watchView(domain.id), 'mta_sts')).toMatchObject({ status: 'wrong', found: 'v=STSv1; id=someoldid', value: switched.data.record.value });
    expect((await historyOf(domain.id)).total).toBe(changes);
  });
});

describe('when the watch looks next', () => {
  it('When an active domain has not been looked at yet, then it is due now; a pending one is not watched at all', async () => {
    const domain = await mail.activeDomain(a);
    const pending = await mail.pendingDomain(a);
    vi.spyOn(Date, 'now').mockReturnValue(Date.now());
    expect(await watchView(domain.id)).toMatchObject({ watched: true, checked_at: null, next_check_at: now() });
    expect(await watchView(pending.id)).toMatchObject({ watched: false, next_check_at: null });
  });

  it('When the watch has looked, then the next look is DNS_WATCH_HOURS later plus a random part of up to a tenth of it', async () => {
    const { domain } = await publishedDomain();
    await t.moveClock(1.2 * HOUR);
    const at = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(at);
    // The random part at its middle, then at its top.
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    await t.services.jobs.runSchedule('domain-health.watch');
    const view = await watchView(domain.id);
    expect(view.checked_at).toBe(now());
    expect(view.next_check_at).toBe(new Date(nowMs() + 1.05 * HOUR).toISOString());
    vi.spyOn(Math, 'random').mockReturnValue(0.999999);
    expect((await t.post('/api/admin/domain/dns_check', { id: domain.id }, { token: a.token })).data.next_check_at).toBe(view.next_check_at);
    vi.spyOn(Date, 'now').mockReturnValue(at + 1.05 * HOUR);
    await t.services.jobs.runSchedule('domain-health.watch');
    expect((await watchView(domain.id)).next_check_at).toBe(new Date(nowMs() + 1.1 * HOUR - 1).toISOString());
  });
});

describe('a DKIM rotation finished by the watch', () => {
  it('When the next key is published before the watch first looks, then signing switches at the second look in a row, logged as the DNS watch', async () => {
    const { domain } = await publishedDomain();
    const before = await selectorOf(domain.id);
    const next = await rotationPublished(domain.id);
    await watchRun();
    expect(await selectorOf(domain.id)).toBe(before);
    await watchRun();
    expect(next.host.startsWith(`${await selectorOf(domain.id)}._domainkey.`)).toBe(true);
    const log = await t.services.db.selectFrom('log').select(['actor_type', 'actor_name']).where('action', '=', 'dkim_switch').where('target_id', '=', domain.id).execute();
    expect(log).toEqual([{ actor_type: 'system', actor_name: 'dns-watch' }]);
  });

  it('When the next key is seen once and then gone, then signing stays on the current key', async () => {
    const { domain } = await publishedDomain();
    const before = await selectorOf(domain.id);
    const next = await rotationPublished(domain.id);
    await watchRun();
    dns.clear(next.host);
    await watchRun();
    await watchRun();
    expect(await selectorOf(domain.id)).toBe(before);
  });

  it('When a new rotation names another next key, then seeing it once is not enough, even though the previous next key was seen', async () => {
    const { domain } = await publishedDomain();
    const first = await rotationPublished(domain.id);
    await watchRun();
    // The customer switches by hand, then starts another rotation at once.
    expect((await t.post('/api/admin/domain/dkim_rotate', { id: domain.id }, { token: a.token })).data).toMatchObject({ switched: true });
    const second = await rotationPublished(domain.id);
    expect(second.host).not.toBe(first.host);
    await watchRun();
    expect(first.host.startsWith(`${await selectorOf(domain.id)}._domainkey.`)).toBe(true);
    await watchRun();
    expect(second.host.startsWith(`${await selectorOf(domain.id)}._domainkey.`)).toBe(true);
  });
});

describe('the MTA-STS policy file and mode', () => {
  const policyAt = (host: string) => t.app.inject({ method: 'GET', url: '/.well-known/mta-sts.txt', headers: { host } });

  it('When a sender fetches the policy, then it is plain UTF-8 text that caches may keep only if they ask again, also for a host written with its final dot', async () => {
    const { domain } = await publishedDomain();
    for (const host of [`mta-sts.${domain.name}`, `mta-sts.${domain.name}.`]) {
      const reply = await policyAt(host);
      expect(reply.statusCode, host).toBe(200);
      expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(reply.headers['cache-control']).toBe('no-cache');
      expect(reply.body).toContain('mode: testing\r\n');
    }
  });

  it('When the host only resembles mta-sts.<domain>, then the answer is a bare 404 as plain text', async () => {
    const { domain } = await publishedDomain();
    for (const host of [`mta-stz.${domain.name}`, `mta-sts-${domain.name}`, `xmta-sts.${domain.name}`]) {
      const reply = await policyAt(host);
      expect(reply.statusCode, host).toBe(404);
      expect(reply.headers['content-type'], host).toMatch(/^text\/plain/);
      expect(reply.body, host).toBe('Not Found');
    }
  });

  it('When a domain name has the longest length allowed (253), then its policy is served', async () => {
    const name = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${crypto.randomBytes(4).toString('hex')}${'d'.repeat(45)}.example`;
    expect(name).toHaveLength(253);
    const domain = await mail.activeDomain(a, name);
    expect((await policyAt(`mta-sts.${domain.name}`)).statusCode).toBe(200);
  });

  it('When the customer sets the mode it already has, then nothing changes and nothing is logged; a change is logged on the domain with before and after', async () => {
    const domain = await mail.activeDomain(a);
    const logOf = () => t.services.db.selectFrom('log').select(['target_type', 'before', 'after']).where('action', '=', 'mta_sts_mode').where('target_id', '=', domain.id).execute();
    const same = await t.post('/api/admin/domain/mta_sts_mode', { id: domain.id, mode: 'testing' }, { token: a.token });
    expect(same.data).toMatchObject({ id: domain.id, mode: 'testing' });
    expect(await logOf()).toEqual([]);
    await t.post('/api/admin/domain/mta_sts_mode', { id: domain.id, mode: 'enforce' }, { token: a.token });
    const log = await logOf();
    expect(log).toHaveLength(1);
    expect(log[0].target_type).toBe('domain');
    expect(JSON.parse(String(log[0].before))).toEqual({ name_unicode: domain.name_unicode, mta_sts_mode: 'testing' });
    expect(JSON.parse(String(log[0].after))).toEqual({ name_unicode: domain.name_unicode, mta_sts_mode: 'enforce' });
  });
});

describe('operators and the API description', () => {
  it('When a billing operator asks, then they may read a domain\'s health but not check it now or switch its mode; support may', async () => {
    const domain = await mail.activeDomain(a);
    const billing = await operatorWithRole(t, 'billing');
    const support = await operatorWithRole(t, 'support');
    expect((await t.get('/api/manage/domain/dns_watch', { id: domain.id }, { token: billing.token })).code).toBe(0);
    expect((await t.get('/api/manage/domain/dns_history', { id: domain.id }, { token: billing.token })).code).toBe(0);
    expect((await t.post('/api/manage/domain/dns_check', { id: domain.id }, { token: billing.token })).status).toBe(403);
    expect((await t.post('/api/manage/domain/mta_sts_mode', { id: domain.id, mode: 'enforce' }, { token: billing.token })).status).toBe(403);
    expect((await t.post('/api/manage/domain/mta_sts_mode', { id: domain.id, mode: 'enforce' }, { token: support.token })).data).toMatchObject({ mode: 'enforce' });
    expect((await t.post('/api/manage/domain/dns_check', { id: domain.id }, { token: support.token })).data).toMatchObject({ domain_id: domain.id, watched: true });
  });

  it('When a client reads /api/openapi.json, then each domain health call is described under its area\'s domain tag, with who may call it', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const op = (path: string, method: string) => doc.paths[path][method] as { tags: string[]; summary: string; 'x-caller': string };
    const said = { dns_watch: /DNS_WATCH_HOURS/, dns_history: /page_size ≤ 100/, dns_check: /error\.domain_not_watched/, mta_sts_mode: /_mta-sts TXT record/ };
    for (const [call, summary] of Object.entries(said)) {
      const method = call === 'dns_watch' || call === 'dns_history' ? 'get' : 'post';
      expect(op(`/api/admin/domain/${call}`, method)).toMatchObject({ tags: ['admin/domain'], 'x-caller': 'customer session (/api/admin)' });
      expect(op(`/api/admin/domain/${call}`, method).summary).toMatch(summary);
      expect(op(`/api/manage/domain/${call}`, method).tags).toEqual(['manage/domain']);
      expect(op(`/api/manage/domain/${call}`, method).summary).toMatch(summary);
    }
    expect(op('/api/manage/domain/dns_watch', 'get')['x-caller']).toBe('operator session (/api/manage): superadmin, support, billing');
    expect(op('/api/manage/domain/dns_history', 'get')['x-caller']).toBe('operator session (/api/manage): superadmin, support, billing');
    expect(op('/api/manage/domain/dns_check', 'post')['x-caller']).toBe('operator session (/api/manage): superadmin, support');
  });
});

// Last: the clock moves on by more than a year.
describe('how long the history is kept', () => {
  it('When a change is 400 days old, then housekeeping keeps it; a minute later, it is gone', async () => {
    const { domain, records } = await publishedDomain();
    await watchRun();
    dns.clear(records.dkim.host);
    await watchRun();
    expect((await historyOf(domain.id)).total).toBe(1);
    await t.moveClock(400 * 24 * HOUR - 60_000);
    await t.services.jobs.runSchedule('housekeeping');
    expect((await historyOf(domain.id)).total).toBe(1);
    await t.moveClock(2 * 60_000);
    await t.services.jobs.runSchedule('housekeeping');
    expect((await historyOf(domain.id)).total).toBe(0);
  });
});
