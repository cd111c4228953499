/**
 * The rules of server/mail's domain half, through the API: adding, changing and deleting domains
 * (verification state, sessions ended, what blocks a deletion), aliases (destinations, limits,
 * suspended domains), alias domains (same owner, no chains, team members), the DNS page's verdict on
 * each record against a real DNS server, verification and DKIM rotation with their log entries,
 * mail programs' self-configuration, the mail server's settings, and how the calls are documented.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageText } from '../../resources/messages.js';
import { selectorOf } from '../../server/mail/dkim.js';
import { mtaStsOf } from '../../server/mail/dns-records.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { signUpCustomer, teamMemberOf, type CustomerSession } from '../helpers/fixtures.js';
import { GiB, mailboxOwner, mailFixtures, uniqueDomain } from '../helpers/mail-fixtures.js';

let t: TestApp;
let dns: DnsServer;
let mail: ReturnType<typeof mailFixtures>;
let root: string;
let a: CustomerSession;
let b: CustomerSession;
beforeAll(async () => {
  dns = await startDnsServer();
  t = await startTestApp({ DNS_SERVERS: dns.address, MAIL_HOSTNAME: 'mx.maildesk.test', MAIL_SUBMISSIONS_PORT: '465' });
  mail = mailFixtures(t);
  root = await mail.operator();
  [a, b] = [await signUpCustomer(t), await signUpCustomer(t)];
  await mail.grant(a.id, GiB);
});
afterAll(async () => {
  await t?.close();
  await dns?.close();
});

type Reply = Awaited<ReturnType<TestApp['post']>>;
/** What a person reads for a reply's message, in both languages. */
const texts = (reply: Pick<Reply, 'message' | 'params'>) => ['en', 'zh'].map((l) => messageText(l as 'en' | 'zh', reply.message, reply.params));
const fieldTexts = (reply: Reply, field: string) => ['en', 'zh'].map((l) => messageText(l as 'en' | 'zh', reply.errors![field].message, reply.errors![field].params));
const logOf = async (filter: Record<string, unknown>) => (await t.post('/api/manage/log/list', { filter, sort: 'id', order: 'asc', page_size: 100 }, { token: root })).data.list;
const operatorUpdate = (id: number, change: Record<string, unknown>) => t.post('/api/manage/domain/update', { id, ...change }, { token: root });
const domainRow = (id: number) => t.services.db.selectFrom('domain').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('adding and changing a domain (domain.ts)', () => {
  it('When a name is typed in capitals with a trailing dot, or in Unicode, then punycode is stored, Unicode shown, with a token and this month’s DKIM selector', async () => {
    const plain = uniqueDomain();
    const added = await t.post('/api/admin/domain/create', { name: ` ${plain.toUpperCase()}. ` }, { token: a.token });
    expect(added).toMatchObject({ code: 0, data: { name: plain, name_unicode: plain, status: 'pending', verified_at: null, dkim_selector: selectorOf(new Date()) } });
    expect(added.data.verify_token).toMatch(/^[0-9a-f]{32}$/);
    const idn = await t.post('/api/admin/domain/create', { name: `Bücher-${plain}` }, { token: a.token });
    expect(idn.data).toMatchObject({ name: expect.stringMatching(/^xn--bcher-[a-z0-9-]+\.example$/), name_unicode: `bücher-${plain}` });
    // A change made later keeps the key made with the domain.
    const key = (await domainRow(added.data.id)).dkim_public_key;
    expect((await t.post('/api/admin/domain/update', { id: added.data.id, note: 'shop' }, { token: a.token })).code).toBe(0);
    expect((await domainRow(added.data.id)).dkim_public_key).toBe(key);
  });

  it('When a name is not a mail domain, then the name field says so in both languages', async () => {
    const reply = await t.post('/api/admin/domain/create', { name: 'shop.example/path' }, { token: a.token });
    expect(reply).toMatchObject({ status: 400, code: 40000, errors: { name: { message: 'validation.invalid_domain' } } });
    expect(fieldTexts(reply, 'name').every((text) => text !== 'validation.invalid_domain')).toBe(true);
  });

  it('When an operator names a team member, or no account, as the owner, then it is refused: domains belong to customers', async () => {
    const member = await teamMemberOf(t, a);
    for (const owner_id of [member.id, 987654]) {
      const reply = await t.post('/api/manage/domain/create', { name: uniqueDomain(), owner_id }, { token: root });
      expect(reply, String(owner_id)).toMatchObject({ code: 40000, errors: { owner_id: { message: 'validation.not_a_customer' } } });
    }
  });

  it('When an operator activates, edits, suspends, reactivates and resets a domain, then its verification is set once, kept, and cleared', async () => {
    const domain = await mail.pendingDomain(a);
    expect((await operatorUpdate(domain.id, { note: 'still pending' })).data).toMatchObject({ status: 'pending', verified_at: null, verified_by: null });
    const active = (await operatorUpdate(domain.id, { status: 'active' })).data;
    expect(active).toMatchObject({ status: 'active', verified_by: 'operator' });
    expect(active.verified_at).toBeTruthy();
    // A minute later: a verification set again would show another time.
    await t.moveClock(60_000);
    try {
      expect((await operatorUpdate(domain.id, { note: 'edited' })).data).toMatchObject({ verified_at: active.verified_at, verified_by: 'operator' });
      expect((await operatorUpdate(domain.id, { status: 'suspended' })).data).toMatchObject({ status: 'suspended', verified_at: active.verified_at });
      expect((await operatorUpdate(domain.id, { status: 'active' })).data).toMatchObject({ status: 'active', verified_at: active.verified_at });
    } finally {
      t.resetClock();
    }
    expect((await operatorUpdate(domain.id, { status: 'pending' })).data).toMatchObject({ status: 'pending', verified_at: null, verified_by: null });
  });

  it('When a domain is edited, its mailbox area turned off, or it is suspended, then its mailbox owners stay signed in only through the edit', async () => {
    const domain = await mail.activeDomain(a);
    const signedIn = async () => (await mailboxOwner(t, a, { domainId: domain.id })).token;
    const works = async (token: string) => (await t.get('/api/mail/me/client_settings', {}, { token })).code;
    let token = await signedIn();
    expect(await t.get('/api/mail/me/client_settings', {}, { token })).toMatchObject({ code: 0, data: { in_service: true, username: expect.stringContaining(`@${domain.name}`) } });
    // A domain with a mailbox may still be edited (only deleting is refused).
    expect((await t.post('/api/admin/domain/update', { id: domain.id, note: 'x', mailbox_area: 1 }, { token: a.token })).code).toBe(0);
    expect(await works(token)).toBe(0);
    expect((await t.post('/api/admin/domain/update', { id: domain.id, mailbox_area: 0 }, { token: a.token })).code).toBe(0);
    expect(await works(token)).toBe(20000);
    // Ended, not merely refused while off: turning the area back on does not revive them.
    await t.post('/api/admin/domain/update', { id: domain.id, mailbox_area: 1 }, { token: a.token });
    expect(await works(token)).toBe(20000);
    token = await signedIn();
    expect((await operatorUpdate(domain.id, { status: 'suspended' })).code).toBe(0);
    expect(await works(token)).toBe(20000);
    expect((await operatorUpdate(domain.id, { status: 'active' })).code).toBe(0);
    expect(await works(token)).toBe(20000);
  });

  it('When a domain holds a mailbox, an alias, or is either side of an alias domain, then deleting it is refused, naming it; empty, it goes', async () => {
    const [withBox, withAlias, aliasSide, targetSide, empty] = [await mail.activeDomain(a), await mail.activeDomain(a), await mail.activeDomain(a), await mail.activeDomain(a), await mail.pendingDomain(a)];
    await mail.mailbox(a.token, withBox.id);
    await mail.alias(a.token, withAlias.id, 'x@example.org');
    expect((await t.post('/api/admin/alias_domain/create', { alias_domain_id: aliasSide.id, target_domain_id: targetSide.id }, { token: a.token })).code).toBe(0);
    for (const domain of [withBox, withAlias, aliasSide, targetSide]) {
      const reply = await t.post('/api/admin/domain/delete', { id: domain.id }, { token: a.token });
      expect(reply, domain.name).toMatchObject({ status: 409, code: 40900, message: 'error.domain_not_empty', params: { domain: domain.name_unicode } });
      for (const text of texts(reply)) expect(text).toContain(domain.name_unicode);
    }
    expect((await t.post('/api/admin/domain/delete', { id: empty.id }, { token: a.token })).code).toBe(0);
    expect((await t.get('/api/admin/domain/get', { id: empty.id }, { token: a.token })).code).toBe(40400);
  });
});

describe('aliases (alias.ts, domain-of.ts)', () => {
  let domain: { id: number; name: string; name_unicode: string };
  beforeAll(async () => {
    domain = await mail.activeDomain(a, `bücher-${uniqueDomain()}`);
  });
  const create = (body: Record<string, unknown>, token = a.token) => t.post('/api/admin/alias/create', { domain_id: domain.id, local_part: `a${Math.random().toString(36).slice(2, 10)}`, ...body }, { token });

  it('When destinations are separated by commas, semicolons, spaces or lines, repeated or in capitals, then each is stored once, lower case', async () => {
    const reply = await create({ local_part: 'Team', goto: 'A@x.org;b@x.org c@x.org,\n d@x.org,, a@x.org ;' });
    expect(reply.data).toMatchObject({ address: `team@${domain.name}`, address_unicode: `team@${domain.name_unicode}`, goto: 'a@x.org,b@x.org,c@x.org,d@x.org', owner_id: a.id });
    expect((await create({ goto: [' E@x.org ', '', 'e@X.org'] })).data.goto).toBe('e@x.org');
  });

  it('When a listed destination holds two addresses, or none is given, then the destination field says which', async () => {
    const two = await create({ goto: ['f@x.org g@x.org'] });
    expect(two.errors?.goto).toEqual({ message: 'validation.invalid_destination', params: { address: 'f@x.org g@x.org' } });
    for (const text of fieldTexts(two, 'goto')) expect(text).toContain('f@x.org g@x.org');
    expect((await create({ goto: ' , ; ' })).errors?.goto.message).toBe('validation.required');
  });

  it('When an alias has 100 destinations, then it is made; 101 are refused, naming the limit', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `u${i}@x.org`).join(' ');
    expect((await create({ goto: many(100) })).data.goto.split(',')).toHaveLength(100);
    const refused = await create({ goto: many(101) });
    expect(refused.errors?.goto).toEqual({ message: 'validation.too_many', params: { max: 100, smart_count: 100 } });
    for (const text of fieldTexts(refused, 'goto')) expect(text).toContain('100');
  });

  it('When an alias is switched off or given new destinations, then only that changes', async () => {
    const made = (await create({ goto: 'keep@x.org' })).data;
    expect((await t.post('/api/admin/alias/update', { id: made.id, active: 0 }, { token: a.token })).data).toMatchObject({ active: 0, goto: 'keep@x.org' });
    expect((await t.post('/api/admin/alias/update', { id: made.id, goto: 'New@x.org' }, { token: a.token })).data).toMatchObject({ active: 0, goto: 'new@x.org', address: made.address });
  });

  it('When the domain reaches its alias limit, then one more is refused in both languages, while the existing ones can still change', async () => {
    const limited = await mail.activeDomain(a);
    await operatorUpdate(limited.id, { max_aliases: 2 });
    const first = await mail.alias(a.token, limited.id, 'x@example.org');
    await mail.alias(a.token, limited.id, 'x@example.org');
    const third = await t.post('/api/admin/alias/create', { domain_id: limited.id, local_part: 'third', goto: 'x@example.org' }, { token: a.token });
    expect(third).toMatchObject({ status: 409, code: 40900, message: 'error.alias_limit', params: { limit: 2, smart_count: 2, domain: limited.name_unicode } });
    for (const text of texts(third)) expect(text).toContain('2');
    expect((await t.post('/api/admin/alias/update', { id: first.id, goto: 'y@example.org' }, { token: a.token })).code).toBe(0);
  });

  it('When the address is a mailbox’s, then the alias is refused as taken', async () => {
    const box = await mail.mailbox(a.token, domain.id);
    expect(await create({ local_part: box.address.split('@')[0], goto: 'x@example.org' })).toMatchObject({ code: 40000, errors: { local_part: { message: 'validation.taken' } } });
  });

  it('When the domain is suspended, then its customer may add no alias there (naming it), an operator may; another customer finds no such domain', async () => {
    const suspended = await mail.activeDomain(a);
    await operatorUpdate(suspended.id, { status: 'suspended' });
    const refused = await t.post('/api/admin/alias/create', { domain_id: suspended.id, local_part: 'x', goto: 'x@example.org' }, { token: a.token });
    expect(refused).toMatchObject({ status: 403, code: 40300, message: 'error.domain_suspended', params: { domain: suspended.name_unicode } });
    for (const text of texts(refused)) expect(text).toContain(suspended.name_unicode);
    const byOperator = await t.post('/api/manage/alias/create', { domain_id: suspended.id, local_part: 'ops', goto: 'x@example.org' }, { token: root });
    expect(byOperator.data).toMatchObject({ address: `ops@${suspended.name}`, owner_id: a.id });
    expect((await create({ goto: 'x@example.org' }, b.token)).code).toBe(40400);
  });
});

describe('alias domains (alias-domain.ts)', () => {
  const link = (alias_domain_id: number, target_domain_id: number, token = a.token, area = 'admin') => t.post(`/api/${area}/alias_domain/create`, { alias_domain_id, target_domain_id }, { token });

  it('When a mapping would chain either way, point at itself, at a suspended or foreign domain, then it is refused with the reason', async () => {
    const [x, y, z, w] = [await mail.activeDomain(a), await mail.activeDomain(a), await mail.activeDomain(a), await mail.activeDomain(a)];
    const made = await link(x.id, y.id);
    expect(made.data).toMatchObject({ alias_domain_id: x.id, target_domain_id: y.id, owner_id: a.id });
    const reason = async (reply: Promise<Reply>) => (await reply).errors?.target_domain_id?.message;
    expect(await reason(link(z.id, x.id))).toBe('validation.alias_domain_chain'); // the target is an alias domain
    expect(await reason(link(y.id, z.id))).toBe('validation.alias_domain_chain'); // the alias domain is a target
    expect(await reason(link(z.id, z.id))).toBe('validation.same_domain');
    expect(await reason(t.post('/api/admin/alias_domain/update', { id: made.data.id, target_domain_id: x.id }, { token: a.token }))).toBe('validation.same_domain');
    // Moving the mapping to another target is no chain with itself.
    expect((await t.post('/api/admin/alias_domain/update', { id: made.data.id, target_domain_id: w.id }, { token: a.token })).data.target_domain_id).toBe(w.id);
    expect((await link(z.id, (await mail.pendingDomain(b)).id)).code).toBe(40400);
    const foreign = await link(z.id, (await mail.pendingDomain(b)).id, root, 'manage');
    expect(foreign.errors?.target_domain_id.message).toBe('validation.other_owner');
    for (const text of fieldTexts(foreign, 'target_domain_id')) expect(text).not.toBe('validation.other_owner');
    await operatorUpdate(w.id, { status: 'suspended' });
    expect(await link(z.id, w.id)).toMatchObject({ code: 40300, message: 'error.domain_suspended', params: { domain: w.name_unicode } });
    expect((await t.post('/api/admin/alias_domain/delete', { id: made.data.id }, { token: a.token })).code).toBe(0);
  });

  it('When an operator maps a customer’s domains, then the mapping is that customer’s', async () => {
    const [x, y] = [await mail.pendingDomain(b), await mail.pendingDomain(b)];
    expect((await link(x.id, y.id, root, 'manage')).data).toMatchObject({ owner_id: b.id, alias_domain_name: x.name, target_domain_name: y.name });
  });

  it('When a team member maps a domain they manage onto one they do not, then it is forbidden; onto one they manage, it is made', async () => {
    const [x, y, z] = [await mail.activeDomain(a), await mail.activeDomain(a), await mail.activeDomain(a)];
    const member = await teamMemberOf(t, a, { domain_ids: [x.id, y.id] });
    expect(await link(x.id, z.id, member.token)).toMatchObject({ status: 403, code: 40300 });
    expect((await link(x.id, y.id, member.token)).code).toBe(0);
  });
});

describe('the DNS page’s verdict on each record (dns-records.ts, client-dns-records.ts)', () => {
  let domain: { id: number; name: string; verify_token: string };
  let expected: Record<string, { host: string; value: string; type: string; priority?: number }>;
  const view = async () => Object.fromEntries((await t.get('/api/admin/domain/dns', { id: domain.id }, { token: a.token })).data.records.map((r: { kind: string }) => [r.kind, r]));
  beforeAll(async () => {
    domain = await mail.pendingDomain(a);
    expected = await view();
  });

  it('When every record is published in its own spelling (case, other priorities, spaces in the key, extra tags), then each is ok', async () => {
    expect(Object.keys(expected)).toEqual(['verification', 'mx', 'spf', 'dkim', 'dmarc', 'mta_sts', 'mta_sts_host', 'tls_rpt', 'autoconfig', 'autodiscover', 'autodiscover_srv', 'imaps_srv', 'submission_srv', 'submissions_srv']);
    expect(expected.submissions_srv).toMatchObject({ host: `_submissions._tcp.${domain.name}`, value: '0 1 465 mx.maildesk.test' });
    expect(expected.mx).toMatchObject({ status: 'missing', message: 'dns.missing', params: { type: 'MX', host: domain.name, value: '10 mx.maildesk.test' } });
    const key = expected.dkim.value.split('p=')[1];
    dns.txt(expected.verification.host, 'other-verification=1', expected.verification.value);
    dns.mx(domain.name, 'MX.Maildesk.Test', 20);
    dns.txt(domain.name, 'hello', 'V=SPF1 +A:MX.MAILDESK.TEST -ALL');
    dns.txt(expected.dkim.host, `k=rsa; p=${key.slice(0, 100)} ${key.slice(100)}`);
    dns.txt(expected.dmarc.host, 'V=DMARC1; P=Quarantine; RUA=mailto:other@x.example, MAILTO:Reports@mx.maildesk.test!10m');
    dns.txt(expected.mta_sts.host, `v=STSv1;id=${expected.mta_sts.value.split('id=')[1]}`);
    dns.cname(expected.mta_sts_host.host, 'Maildesk.Test');
    dns.txt(expected.tls_rpt.host, 'v=TLSRPTv1; rua=mailto:x@y.example, MAILTO:Reports@mx.maildesk.test');
    dns.cname(expected.autoconfig.host, 'MAILDESK.TEST');
    dns.cname(expected.autodiscover.host, 'maildesk.test');
    dns.srv(expected.autodiscover_srv.host, '10 5 443 maildesk.test');
    for (const kind of ['imaps_srv', 'submission_srv', 'submissions_srv']) dns.publish(expected[kind]);
    const seen = await view();
    expect(Object.fromEntries(Object.entries(seen).map(([k, r]) => [k, (r as { status: string }).status]))).toEqual(Object.fromEntries(Object.keys(expected).map((k) => [k, 'ok'])));
    expect(seen.verification).toMatchObject({ message: 'dns.ok', found: [expected.verification.value] });
    expect(seen.mx.found).toEqual(['20 mx.maildesk.test']);
    expect(seen.spf.found).toEqual(['V=SPF1 +A:MX.MAILDESK.TEST -ALL']);
    // "mx" alone authorises the server too; a published key of another form is still the key.
    dns.txt(domain.name, 'v=spf1 mx -all');
    dns.txt(expected.dkim.host, expected.dkim.value);
    dns.mx(domain.name, 'mx.maildesk.test.', 10);
    expect((await view()).spf.status).toBe('ok');
  });

  it('When records say something else, twice, or are not of their kind, then each is wrong, multiple or missing, with what was found', async () => {
    dns.txt(expected.verification.host, 'other-verification=1');
    dns.txt(domain.name, 'v=spf1 include:elsewhere.example -all');
    dns.txt(expected.dkim.host, 'v=DKIM1; k=rsa; p=AAAA');
    dns.txt(expected.dmarc.host, 'v=DMARC1; p=bogus; rua=mailto:reports@mx.maildesk.test');
    dns.txt(expected.mta_sts.host, 'v=STSv1; id=1', 'v=STSv1; id=2');
    dns.txt(expected.tls_rpt.host, 'v=TLSRPTv1; rua=mailto:x@y.example');
    dns.srv(expected.imaps_srv.host, '0 1 143 mx.maildesk.test');
    dns.cname(expected.autoconfig.host, 'elsewhere.example');
    let seen = await view();
    expect(seen.verification).toMatchObject({ status: 'missing', found: [] });
    expect(seen.spf).toMatchObject({ status: 'wrong', message: 'dns.wrong', found: ['v=spf1 include:elsewhere.example -all'], params: { found: 'v=spf1 include:elsewhere.example -all', value: expected.spf.value } });
    expect(seen.dkim).toMatchObject({ status: 'wrong', found: ['v=DKIM1; k=rsa; p=AAAA'] });
    expect(seen.dmarc).toMatchObject({ status: 'wrong', message: 'dns.wrong' });
    expect(seen.mta_sts).toMatchObject({ status: 'wrong', message: 'dns.multiple', params: { found: 'v=STSv1; id=1 | v=STSv1; id=2' } });
    expect(seen.tls_rpt).toMatchObject({ status: 'wrong', message: 'dns.wrong' });
    expect(seen.imaps_srv).toMatchObject({ status: 'wrong', found: ['0 1 143 mx.maildesk.test'] });
    expect(seen.autoconfig).toMatchObject({ status: 'wrong', found: ['elsewhere.example'] });

    dns.txt(domain.name, 'v=spf1 mx -all', 'v=spf1 a:mx.maildesk.test -all', 'v=spf10 other');
    dns.txt(expected.dkim.host, 'not a key');
    dns.txt(expected.dmarc.host, 'v=DMARC1; p=none');
    dns.txt(expected.mta_sts.host, 'v=STSv1; id=0000');
    dns.txt(expected.tls_rpt.host, expected.tls_rpt.value, 'v=TLSRPTv1; rua=mailto:x@y.example');
    seen = await view();
    expect(seen.spf).toMatchObject({ status: 'wrong', message: 'dns.spf_multiple', found: ['v=spf1 mx -all', 'v=spf1 a:mx.maildesk.test -all'] });
    for (const text of texts(seen.spf)) expect(text).toContain(domain.name);
    expect(seen.dkim).toMatchObject({ status: 'missing' });
    expect(seen.dmarc).toMatchObject({ status: 'wrong' }); // no report address
    expect(seen.mta_sts).toMatchObject({ status: 'wrong', message: 'dns.wrong' });
    expect(seen.tls_rpt).toMatchObject({ status: 'wrong', message: 'dns.multiple' });

    dns.txt(expected.dmarc.host, expected.dmarc.value, expected.dmarc.value);
    dns.txt(domain.name, 'v=spf1');
    seen = await view();
    expect(seen.dmarc).toMatchObject({ status: 'wrong', message: 'dns.wrong' }); // two DMARC records
    expect(seen.spf).toMatchObject({ status: 'wrong', found: ['v=spf1'] });
  });

  it('When the customer chooses a DMARC policy or enforces MTA-STS, then the published record must follow', async () => {
    dns.txt(expected.dmarc.host, expected.dmarc.value);
    dns.txt(expected.mta_sts.host, expected.mta_sts.value);
    expect((await t.post('/api/admin/reports/update_policy', { domain_id: domain.id, policy: 'reject' }, { token: a.token })).code).toBe(0);
    expect((await t.post('/api/admin/domain/mta_sts_mode', { id: domain.id, mode: 'enforce' }, { token: a.token })).code).toBe(0);
    let seen = await view();
    expect([seen.dmarc.status, seen.mta_sts.status]).toEqual(['wrong', 'wrong']);
    expect(seen.mta_sts.value).toBe(`v=STSv1; id=${mtaStsOf({ mta_sts_mode: 'enforce' }, 'mx.maildesk.test').id}`);
    dns.txt(expected.dmarc.host, 'v=DMARC1; p=REJECT; rua=mailto:reports@mx.maildesk.test');
    dns.publish(seen.mta_sts);
    seen = await view();
    expect([seen.dmarc.status, seen.mta_sts.status]).toEqual(['ok', 'ok']);
  });

  it('When mta-sts.<domain> has an address rather than a CNAME, then it is ok when the panel has it too, and wrong otherwise', async () => {
    dns.clear(expected.mta_sts_host.host);
    expect((await view()).mta_sts_host).toMatchObject({ status: 'missing' });
    dns.host(expected.mta_sts_host.host, '192.0.2.80');
    expect((await view()).mta_sts_host).toMatchObject({ status: 'wrong', found: ['192.0.2.80'] });
    dns.host('maildesk.test', '192.0.2.81', '192.0.2.80');
    expect((await view()).mta_sts_host).toMatchObject({ status: 'ok', found: ['maildesk.test'] });
    dns.clear('maildesk.test');
  });
});

describe('verification and DKIM rotation (domain-calls.ts, dkim.ts)', () => {
  it('When the verification record is missing, then verify names it; once published, the domain is active by DNS, logged, and stays so', async () => {
    const domain = await mail.pendingDomain(a);
    const host = `_maildesk.${domain.name}`;
    const value = `maildesk-verification=${domain.verify_token}`;
    const refused = await t.post('/api/admin/domain/verify', { id: domain.id }, { token: a.token });
    expect(refused).toMatchObject({ status: 409, code: 40900, message: 'error.domain_not_verified', params: { host, value } });
    for (const text of texts(refused)) expect(text).toContain(value);
    dns.txt(host, value);
    const verified = await t.post('/api/manage/domain/verify', { id: domain.id }, { token: root });
    expect(verified.data).toMatchObject({ id: domain.id, status: 'active', verified_by: 'dns' });
    expect(await logOf({ action: 'verify', target_id: domain.id })).toMatchObject([
      { target_type: 'domain', user_id: a.id, before: { name_unicode: domain.name_unicode, status: 'pending', verified_at: null }, after: { status: 'active', verified_by: 'dns', verified_at: verified.data.verified_at } },
    ]);
    // Already proven: the record may go, verifying again changes nothing.
    dns.clear(host);
    expect((await t.post('/api/admin/domain/verify', { id: domain.id }, { token: a.token })).data).toMatchObject({ status: 'active', verified_at: verified.data.verified_at });
    const page = (await t.get('/api/admin/domain/dns', { id: domain.id }, { token: a.token })).data;
    expect(page).toMatchObject({ domain: { id: domain.id, name: domain.name, name_unicode: domain.name_unicode, status: 'active', verified_at: verified.data.verified_at }, notice: null });
    expect(Date.parse(page.checked_at)).toBeGreaterThan(0);
    // Suspended: verify refuses, naming the domain; back in service, it is still verified by DNS.
    await operatorUpdate(domain.id, { status: 'suspended' });
    expect(await t.post('/api/admin/domain/verify', { id: domain.id }, { token: a.token })).toMatchObject({ code: 40300, message: 'error.domain_suspended', params: { domain: domain.name_unicode } });
    expect((await operatorUpdate(domain.id, { status: 'active' })).data).toMatchObject({ verified_by: 'dns', verified_at: verified.data.verified_at });
    expect(await logOf({ action: 'verify', target_id: domain.id })).toHaveLength(1);
  });

  it('When a key is rotated, then a next key is proposed and logged, the switch waits for its record, then happens once and is logged', async () => {
    const domain = await mail.pendingDomain(a);
    const first = (await domainRow(domain.id)).dkim_selector;
    const prepared = await t.post('/api/admin/domain/dkim_rotate', { id: domain.id }, { token: a.token });
    expect(prepared.data).toMatchObject({ id: domain.id, dkim_selector: first, switched: false });
    const next: string = prepared.data.dkim_next_selector;
    expect(next).toMatch(new RegExp(`^${selectorOf(new Date())}-[0-9a-f]{4}$`));
    expect(await logOf({ action: 'dkim_prepare', target_id: domain.id })).toMatchObject([{ user_id: a.id, before: { dkim_selector: first }, after: { dkim_next_selector: next } }]);
    const record = (await t.get('/api/admin/domain/dns', { id: domain.id }, { token: a.token })).data.records.find((r: { kind: string }) => r.kind === 'dkim_next');
    expect(record).toMatchObject({ type: 'TXT', host: `${next}._domainkey.${domain.name}`, status: 'missing' });
    const early = await t.post('/api/manage/domain/dkim_rotate', { id: domain.id }, { token: root });
    expect(early).toMatchObject({ code: 40900, message: 'error.dkim_next_not_published', params: { host: record.host, value: record.value } });
    for (const text of texts(early)) expect(text).toContain(record.host);
    dns.txt(record.host, record.value);
    const both = await Promise.all([1, 2].map(() => t.post('/api/admin/domain/dkim_rotate', { id: domain.id }, { token: a.token })));
    for (const reply of both) expect(reply.data).toMatchObject({ dkim_selector: next, dkim_next_selector: null, switched: true });
    expect(await logOf({ action: 'dkim_switch', target_id: domain.id })).toMatchObject([{ user_id: a.id, before: { dkim_selector: first }, after: { dkim_selector: next } }]);
    const dkim = (await t.get('/api/admin/domain/dns', { id: domain.id }, { token: a.token })).data.records.find((r: { kind: string }) => r.kind === 'dkim');
    expect(dkim).toMatchObject({ host: record.host, value: record.value, status: 'ok' });
  });
});

describe('mail programs and the mail server (client-config-calls.ts, mail-server-calls.ts)', () => {
  let active: { id: number; name: string };
  let box: { id: number; address: string };
  const raw = (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}, payload?: string) => t.app.inject({ method, url, headers: { host: 'maildesk.test', ...headers }, payload });
  const autoconfig = (address: string) => raw('GET', `/.well-known/autoconfig/mail/config-v1.1.xml?emailaddress=${encodeURIComponent(address)}`);
  beforeAll(async () => {
    active = await mail.activeDomain(a);
    box = await mail.mailbox(a.token, active.id, 'anna', { name: 'Anna' });
  });

  it('When an address is not one (a space, two @), then a bare 404; in capitals, or by host name with port and trailing dot, it is served uncached', async () => {
    for (const address of [`x y@${active.name}`, `x@${active.name}@evil.example`]) expect((await autoconfig(address)).statusCode, address).toBe(404);
    const capitals = await autoconfig(`ANNA@${active.name.toUpperCase()}`);
    expect([capitals.statusCode, capitals.headers['cache-control']]).toEqual([200, 'no-cache']);
    for (const host of [`autoconfig.${active.name.toUpperCase()}.:8443`, active.name]) {
      const reply = await raw('GET', '/mail/config-v1.1.xml', { host });
      expect([host, reply.statusCode, reply.body.includes(`<domain>${active.name}</domain>`)]).toEqual([host, 200, true]);
    }
    // The address asked wins over the host asked.
    expect((await raw('GET', `/mail/config-v1.1.xml?emailaddress=x@${uniqueDomain()}`, { host: `autoconfig.${active.name}` })).statusCode).toBe(404);
  });

  it('When Outlook asks by query string, or posts something that is not XML, then the address is taken from the query, lower case', async () => {
    for (const reply of [await raw('GET', `/autodiscover/autodiscover.xml?emailaddress=Anna@${active.name}`), await raw('POST', `/Autodiscover/Autodiscover.xml?emailaddress=Anna@${active.name}`, { 'content-type': 'application/json' }, '{}')]) {
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['cache-control']).toBe('no-cache');
      expect(reply.body).toContain(`<LoginName>anna@${active.name}</LoginName>`);
    }
    expect((await raw('GET', '/autodiscover/autodiscover.xml')).statusCode).toBe(404);
  });

  it('When the customer is disabled, then their active domain answers mail programs no more', async () => {
    const c = await signUpCustomer(t);
    const domain = await mail.activeDomain(c);
    expect((await autoconfig(`x@${domain.name}`)).statusCode).toBe(200);
    expect((await t.post('/api/manage/user/update', { id: c.id, status: 'disabled' }, { token: root })).code).toBe(0);
    expect((await autoconfig(`x@${domain.name}`)).statusCode).toBe(404);
  });

  it('When a mailbox is off or its domain pending, then its settings say not in service; operators see them too; the profile is named after the mailbox', async () => {
    const settings = async (id: number, area = 'admin', token = a.token) => (await t.get(`/api/${area}/email/client_settings`, { id }, { token })).data;
    expect(await settings(box.id)).toMatchObject({ address: box.address, in_service: true });
    expect(await settings(box.id, 'manage', root)).toMatchObject({ address: box.address, username: box.address, in_service: true, outgoing: [{ port: 587 }, { port: 465 }] });
    await t.post('/api/admin/email/update', { id: box.id, active: 0 }, { token: a.token });
    expect((await settings(box.id)).in_service).toBe(false);
    await t.post('/api/admin/email/update', { id: box.id, active: 1 }, { token: a.token });
    const early = await mail.mailbox(a.token, (await mail.pendingDomain(a)).id);
    expect((await settings(early.id)).in_service).toBe(false);
    const profile = (await t.get('/api/admin/email/apple_profile', { id: box.id }, { token: a.token })).data;
    expect(profile).toMatchObject({ filename: `${box.address}.mobileconfig`, content_type: 'application/x-apple-aspen-config' });
    expect(profile.content).toContain(`<key>PayloadIdentifier</key><string>test.maildesk.${box.address}.mail</string>`);
    expect(profile.content).toContain('<key>EmailAccountName</key><string>Anna</string>');
  });

  it('When the mail server has an IPv4 address only, then it is ready with that address and the ports mail programs are given', async () => {
    dns.host('mx.maildesk.test', '192.0.2.25');
    expect((await t.post('/api/manage/mail_server/settings', {}, { token: root })).data).toEqual({
      hostname: 'mx.maildesk.test',
      problem: null,
      notice: null,
      addresses: { status: 'ok', found: ['192.0.2.25'] },
      imap_port: 993,
      submission_port: 587,
      submissions_port: 465,
    });
  });

  it('When DNS does not answer, then the mail server’s addresses and each record are unchecked, naming the error', async () => {
    const offline = await startTestApp({ DNS_SERVERS: '127.0.0.1:9', MAIL_HOSTNAME: 'mx.maildesk.test' });
    try {
      const operator = (await offline.post('/api/manage/login/login', { username: 'root', password: 'root-password-1' })).data.token;
      const { addresses } = (await offline.post('/api/manage/mail_server/settings', {}, { token: operator })).data;
      expect(addresses).toMatchObject({ status: 'unchecked', found: [], error: expect.stringMatching(/^E[A-Z]+$/) });
      const c = await signUpCustomer(offline);
      const domain = (await offline.post('/api/admin/domain/create', { name: uniqueDomain() }, { token: c.token })).data;
      const [first] = (await offline.get('/api/admin/domain/dns', { id: domain.id }, { token: c.token })).data.records;
      expect(first).toMatchObject({ status: 'unchecked', message: 'dns.lookup_failed', params: { error: addresses.error } });
    } finally {
      await offline.close();
    }
  });
});

describe('how these calls are documented', () => {
  it('When the API description is read, then each domain and mail-program call has its tag, a summary, and its API-key use', async () => {
    const { paths } = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const calls: [string, string, string, string][] = [
      ['post', '/api/admin/domain/dkim_rotate', 'admin/domain', 'write'],
      ['post', '/api/manage/domain/dkim_rotate', 'manage/domain', 'write'],
      ['get', '/api/admin/domain/dns', 'admin/domain', 'read'],
      ['get', '/api/manage/domain/dns', 'manage/domain', 'read'],
      ['post', '/api/admin/domain/verify', 'admin/domain', 'write'],
      ['post', '/api/manage/domain/verify', 'manage/domain', 'write'],
      ['post', '/api/manage/mail_server/settings', 'manage/mail_server', 'read'],
      ['get', '/api/admin/email/client_settings', 'admin/email', 'read'],
      ['get', '/api/manage/email/client_settings', 'manage/email', 'read'],
      ['get', '/api/mail/me/client_settings', 'mail/me', 'never'],
      ['get', '/api/admin/email/apple_profile', 'admin/email', 'read'],
    ];
    for (const [method, path, tag, key] of calls) {
      const operation = paths[path]?.[method];
      expect({ path, tags: operation?.tags, key: operation?.['x-api-key'], summarised: String(operation?.summary ?? '').length > 40 }).toEqual({ path, tags: [tag], key, summarised: true });
    }
    expect(paths['/api/manage/domain/verify'].post.summary).toContain('mark a domain verified');
  });
});
