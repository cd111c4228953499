/**
 * Domain health: the scheduled DNS watch against the tests' own DNS server (a record removed is
 * noticed, its owner e-mailed once, the history kept, putting it back clears it), MTA-STS served
 * for the right host only and its mode switched, and who may see a domain's history.
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { signUpCustomer, teamMemberOf, type CustomerSession } from '../helpers/fixtures.js';
import { mailFixtures } from '../helpers/mail-fixtures.js';

let t: TestApp;
let dns: DnsServer;
let mail: ReturnType<typeof mailFixtures>;
let a: CustomerSession;
let b: CustomerSession;
const HOUR = 3_600_000;

beforeAll(async () => {
  dns = await startDnsServer();
  // The clock moves a lot here: sessions outlast it.
  t = await startTestApp({ DNS_SERVERS: dns.address, MAIL_HOSTNAME: 'mx.maildesk.test', DNS_WATCH_HOURS: '1', SESSION_IDLE_MINUTES: '10000000', SESSION_ABSOLUTE_HOURS: '1000000' });
  mail = mailFixtures(t);
  [a, b] = [await signUpCustomer(t), await signUpCustomer(t)];
});
afterAll(async () => {
  t.resetClock();
  await t.close();
  await dns.close();
});

interface Record {
  kind: string;
  type: string;
  host: string;
  value: string;
  priority?: number;
  status: string;
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
async function publishedDomain() {
  const domain = await mail.activeDomain(a);
  for (const record of await dnsPage(domain.id)) dns.publish(record);
  return { domain, records: Object.fromEntries((await dnsPage(domain.id)).map((r) => [r.kind, r])) };
}

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

  it('When a domain is not due, or not active, then the run leaves it alone', async () => {
    const { domain } = await publishedDomain();
    await watchRun();
    const first = (await watchView(domain.id)).checked_at;
    await t.services.jobs.runSchedule('domain-health.watch');
    expect((await watchView(domain.id)).checked_at).toBe(first);
    const pending = await mail.pendingDomain(a);
    await watchRun();
    expect(await watchView(pending.id)).toMatchObject({ watched: false, checked_at: null, records: [] });
    expect(await t.post('/api/admin/domain/dns_check', { id: pending.id }, { token: a.token })).toMatchObject({ code: 40900, message: 'error.domain_not_watched' });
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
