import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeDkimKeysFrom } from '../../server/mail/dkim.js';
import { fixtureDkimKeys, ROOT, startTestApp, type TestApp } from '../helpers/app.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { signUpCustomer, teamMemberOf, type CustomerSession } from '../helpers/fixtures.js';
import { GiB, mailFixtures, uniqueDomain } from '../helpers/mail-fixtures.js';

let t: TestApp;
let dns: DnsServer;
let mail: ReturnType<typeof mailFixtures>;
let a: CustomerSession;
let b: CustomerSession;
beforeAll(async () => {
  dns = await startDnsServer();
  t = await startTestApp({ DNS_SERVERS: dns.address, MAIL_HOSTNAME: 'mx.maildesk.test' });
  mail = mailFixtures(t);
  [a, b] = [await signUpCustomer(t), await signUpCustomer(t)];
});
afterAll(async () => {
  await t.close();
  await dns.close();
});

const count = async (table: 'domain' | 'mailbox' | 'alias') => Number((await t.services.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('adding a domain', () => {
  it('When a customer adds an internationalised name, then it is stored as punycode, shown as Unicode, pending, with a DKIM key', async () => {
    const name = `Bücher-${crypto.randomBytes(3).toString('hex')}.example`;
    // A key generated as in production (the suite otherwise takes keys made once).
    takeDkimKeysFrom();
    const reply = await t.post('/api/admin/domain/create', { name }, { token: a.token }).finally(() => takeDkimKeysFrom(fixtureDkimKeys));
    expect(reply).toMatchObject({ code: 0, data: { name_unicode: name.toLowerCase(), status: 'pending', verified_at: null, owner_id: a.id } });
    expect(reply.data.name).toMatch(/^xn--bcher-/);
    expect(reply.data.verify_token).toMatch(/^[0-9a-f]{32}$/);
    const row = await t.services.db.selectFrom('domain').selectAll().where('id', '=', reply.data.id).executeTakeFirstOrThrow();
    expect(crypto.createPublicKey(row.dkim_public_key).asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(reply.data).not.toHaveProperty('dkim_private_key');
    // Search finds it by either form.
    const byUnicode = await t.post('/api/admin/domain/list', { q: 'bücher' }, { token: a.token });
    expect(byUnicode.data.list.map((d: { id: number }) => d.id)).toContain(reply.data.id);
  });

  it('When a name is taken by another customer, or not a domain, then it is refused and nothing is added', async () => {
    const name = uniqueDomain();
    await mail.pendingDomain(a, name);
    const before = await count('domain');
    expect(await t.post('/api/admin/domain/create', { name: name.toUpperCase() }, { token: b.token })).toMatchObject({ code: 40000, errors: { name: { message: 'validation.taken' } } });
    for (const bad of ['localhost', 'no spaces.example', 'a@b.example', '-lead.example', '123.456', '']) {
      const reply = await t.post('/api/admin/domain/create', { name: bad }, { token: a.token });
      expect(reply.code, bad).toBe(40000);
    }
    expect(await count('domain')).toBe(before);
  });

  it('When a customer sends status or limits, then they are ignored: only operators set them', async () => {
    const reply = await t.post('/api/admin/domain/create', { name: uniqueDomain(), status: 'active', max_mailboxes: 99 }, { token: a.token });
    expect(reply.data).toMatchObject({ status: 'pending', max_mailboxes: 0 });
    const update = await t.post('/api/admin/domain/update', { id: reply.data.id, status: 'active', max_quota: 5, note: 'Shop' }, { token: a.token });
    expect(update.data).toMatchObject({ status: 'pending', max_quota: 0, note: 'Shop' });
  });

  it('When an operator adds a domain, then it must belong to a customer account', async () => {
    const operator = await mail.operator();
    const member = await teamMemberOf(t, a);
    expect(await t.post('/api/manage/domain/create', { name: uniqueDomain(), owner_id: member.id }, { token: operator })).toMatchObject({ code: 40000, errors: { owner_id: { message: 'validation.not_a_customer' } } });
    expect(await t.post('/api/manage/domain/create', { name: uniqueDomain() }, { token: operator })).toMatchObject({ code: 40000, errors: { owner_id: { message: 'validation.required' } } });
    expect((await t.post('/api/manage/domain/create', { name: uniqueDomain(), owner_id: a.id }, { token: operator })).data).toMatchObject({ owner_id: a.id, status: 'pending' });
  });
});

describe('DNS records and verification', () => {
  it('When the records are missing, wrong, then right, then the check says so for each, and verify activates the domain', async () => {
    const domain = await mail.pendingDomain(a);
    const view = async () => (await t.get('/api/admin/domain/dns', { id: domain.id }, { token: a.token })).data;
    const first = await view();
    expect(first.records.map((r: { kind: string }) => r.kind)).toEqual(['verification', 'mx', 'spf', 'dkim', 'dmarc', 'mta_sts', 'mta_sts_host', 'tls_rpt', 'autoconfig', 'autodiscover', 'autodiscover_srv', 'imaps_srv', 'submission_srv']);
    expect(first.records.every((r: { status: string; message: string }) => r.status === 'missing' && r.message === 'dns.missing')).toBe(true);
    const byKind = Object.fromEntries(first.records.map((r: { kind: string }) => [r.kind, r]));
    expect(byKind.verification).toMatchObject({ type: 'TXT', host: `_maildesk.${domain.name}`, value: `maildesk-verification=${domain.verify_token}` });
    expect(byKind.mx).toMatchObject({ type: 'MX', host: domain.name, value: 'mx.maildesk.test', priority: 10 });
    expect(byKind.dkim.host).toMatch(new RegExp(`^md\\d{6}\\._domainkey\\.${domain.name.replace(/\./g, '\\.')}$`));

    expect(await t.post('/api/admin/domain/verify', { id: domain.id }, { token: a.token })).toMatchObject({
      code: 40900,
      message: 'error.domain_not_verified',
      params: { host: byKind.verification.host, value: byKind.verification.value },
    });

    dns.txt(byKind.verification.host, 'maildesk-verification=not-the-token');
    dns.mx(domain.name, 'mx.elsewhere.example');
    dns.txt(domain.name, 'v=spf1 -all', 'v=spf1 mx ~all');
    dns.txt(byKind.dkim.host, 'v=DKIM1; k=rsa; p=AAAA');
    const wrong = Object.fromEntries((await view()).records.map((r: { kind: string }) => [r.kind, r]));
    expect(wrong.verification).toMatchObject({ status: 'wrong', message: 'dns.wrong', found: ['maildesk-verification=not-the-token'] });
    expect(wrong.mx).toMatchObject({ status: 'wrong', found: ['10 mx.elsewhere.example'] });
    expect(wrong.spf).toMatchObject({ status: 'wrong', message: 'dns.spf_multiple' });
    expect(wrong.dkim).toMatchObject({ status: 'wrong' });
    expect(wrong.dmarc).toMatchObject({ status: 'missing' });
    // A TXT record with the wrong value proves nothing: the domain stays pending.
    expect(await t.post('/api/admin/domain/verify', { id: domain.id }, { token: a.token })).toMatchObject({ code: 40900, message: 'error.domain_not_verified' });
    expect((await t.get('/api/admin/domain/get', { id: domain.id }, { token: a.token })).data).toMatchObject({ status: 'pending', verified_at: null });

    for (const record of first.records) dns.publish(record);
    expect((await view()).records.map((r: { status: string }) => r.status)).toEqual(first.records.map(() => 'ok'));
    const verified = await t.post('/api/admin/domain/verify', { id: domain.id }, { token: a.token });
    expect(verified.data).toMatchObject({ status: 'active', verified_by: 'dns' });
    expect(verified.data.verified_at).toBeTruthy();
    // Repeating it is harmless.
    expect((await t.post('/api/admin/domain/verify', { id: domain.id }, { token: a.token })).data.verified_at).toBe(verified.data.verified_at);
  });

  it('When an operator marks a domain verified, suspends it, and sets it back to pending, then status and verification follow', async () => {
    const operator = await mail.operator();
    const domain = await mail.pendingDomain(a);
    const active = await t.post('/api/manage/domain/update', { id: domain.id, status: 'active' }, { token: operator });
    expect(active.data).toMatchObject({ status: 'active', verified_by: 'operator' });
    const suspended = await t.post('/api/manage/domain/update', { id: domain.id, status: 'suspended' }, { token: operator });
    expect(suspended.data).toMatchObject({ status: 'suspended', verified_by: 'operator' });
    expect(await t.post('/api/admin/domain/verify', { id: domain.id }, { token: a.token })).toMatchObject({ code: 40300, message: 'error.domain_suspended' });
    await mail.grant(a.id, GiB);
    const refused = await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'x', password: 'mailbox-pass-1' }, { token: a.token });
    expect(refused).toMatchObject({ code: 40300, message: 'error.domain_suspended' });
    const pending = await t.post('/api/manage/domain/update', { id: domain.id, status: 'pending' }, { token: operator });
    expect(pending.data).toMatchObject({ status: 'pending', verified_at: null, verified_by: null });
  });

  it('When the resolver cannot answer, then the record is unchecked, not wrong', async () => {
    const offline = await startTestApp({ DNS_SERVERS: '127.0.0.1:9' });
    try {
      const customer = await signUpCustomer(offline);
      const domain = (await offline.post('/api/admin/domain/create', { name: uniqueDomain() }, { token: customer.token })).data;
      const view = await offline.get('/api/admin/domain/dns', { id: domain.id }, { token: customer.token });
      expect(view.data.records.every((r: { status: string; message: string }) => r.status === 'unchecked' && r.message === 'dns.lookup_failed')).toBe(true);
    } finally {
      await offline.close();
    }
  });
});

describe('limits and deleting', () => {
  it('When an operator sets limits, then mailboxes and aliases beyond them are refused', async () => {
    const operator = await mail.operator();
    await mail.grant(a.id, 10 * GiB);
    const domain = await mail.activeDomain(a);
    await t.post('/api/manage/domain/update', { id: domain.id, max_mailboxes: 1, max_aliases: 1, max_quota: 2 * 1024 ** 2 }, { token: operator });
    expect(await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'big', password: 'mailbox-pass-1', quota: 3 * 1024 ** 2 }, { token: a.token })).toMatchObject({
      code: 40000,
      errors: { quota: { message: 'validation.quota_above_domain_max', params: { max: 2 * 1024 ** 2 } } },
    });
    await mail.mailbox(a.token, domain.id, 'one');
    expect(await t.post('/api/admin/email/create', { domain_id: domain.id, local_part: 'two', password: 'mailbox-pass-1', quota: 1024 ** 2 }, { token: a.token })).toMatchObject({
      code: 40900,
      message: 'error.mailbox_limit',
      params: { limit: 1 },
    });
    await mail.alias(a.token, domain.id, 'x@example.org', 'first');
    expect(await t.post('/api/admin/alias/create', { domain_id: domain.id, local_part: 'second', goto: 'x@example.org' }, { token: a.token })).toMatchObject({ code: 40900, message: 'error.alias_limit' });
  });

  it('When a domain still has mailboxes, then it cannot be deleted; once empty it can', async () => {
    await mail.grant(a.id, GiB);
    const domain = await mail.activeDomain(a);
    const box = await mail.mailbox(a.token, domain.id);
    expect(await t.post('/api/admin/domain/delete', { id: domain.id }, { token: a.token })).toMatchObject({ code: 40900, message: 'error.domain_not_empty' });
    await t.post('/api/admin/email/delete', { id: box.id }, { token: a.token });
    expect((await t.post('/api/admin/domain/delete', { id: domain.id }, { token: a.token })).code).toBe(0);
    expect((await t.get('/api/admin/domain/get', { id: domain.id }, { token: a.token })).code).toBe(40400);
  });
});

describe('deleting a domain that is still in use', () => {
  it('When a domain still has an alias, or is an alias domain or its target, then it cannot be deleted; once free it can', async () => {
    await mail.grant(a.id, GiB);
    const withAlias = await mail.activeDomain(a);
    const alias = await mail.alias(a.token, withAlias.id, 'someone@example.org');
    expect(await t.post('/api/admin/domain/delete', { id: withAlias.id }, { token: a.token })).toMatchObject({ code: 40900, message: 'error.domain_not_empty' });

    const target = await mail.activeDomain(a);
    const aliasDomain = await mail.pendingDomain(a);
    const link = await t.post('/api/admin/alias_domain/create', { alias_domain_id: aliasDomain.id, target_domain_id: target.id }, { token: a.token });
    expect(link.code).toBe(0);
    for (const id of [target.id, aliasDomain.id]) {
      expect(await t.post('/api/admin/domain/delete', { id }, { token: a.token })).toMatchObject({ code: 40900, message: 'error.domain_not_empty' });
    }
    for (const id of [withAlias.id, target.id, aliasDomain.id]) expect((await t.get('/api/admin/domain/get', { id }, { token: a.token })).data).toMatchObject({ id });
    const kept = await count('domain');

    expect((await t.post('/api/admin/alias/delete', { id: alias.id }, { token: a.token })).code).toBe(0);
    expect((await t.post('/api/admin/alias_domain/delete', { id: link.data.id }, { token: a.token })).code).toBe(0);
    for (const id of [withAlias.id, target.id, aliasDomain.id]) expect((await t.post('/api/admin/domain/delete', { id }, { token: a.token })).code).toBe(0);
    expect(await count('domain')).toBe(kept - 3);
  });
});

describe('tenants', () => {
  it("When customer B tries customer A's domain, then B sees and changes nothing", async () => {
    const domain = await mail.pendingDomain(a);
    const list = await t.post('/api/admin/domain/list', { page_size: 100 }, { token: b.token });
    expect(list.data.list.map((d: { id: number }) => d.id)).not.toContain(domain.id);
    for (const [path, body] of [
      ['/api/admin/domain/update', { id: domain.id, note: 'mine now' }],
      ['/api/admin/domain/delete', { id: domain.id }],
      ['/api/admin/domain/verify', { id: domain.id }],
    ] as const) {
      expect((await t.post(path, body, { token: b.token })).code).toBe(40400);
    }
    expect((await t.get('/api/admin/domain/dns', { id: domain.id }, { token: b.token })).code).toBe(40400);
    expect((await t.get('/api/admin/domain/get', { id: domain.id }, { token: a.token })).data).toMatchObject({ note: '' });
  });
});

// Mail server name (issue 12, finding 11): never show a record that cannot work.
describe('DNS records while the mail server has no publishable name', () => {
  for (const [label, hostname] of [
    ['unset (PUBLIC_URL is an address)', undefined],
    ['an IPv4 address', '192.0.2.10'],
    ['an IPv6 address', '2001:db8::25'],
    ['not a public name', 'localhost'],
  ] as const) {
    it(`When MAIL_HOSTNAME is ${label}, then customers see no MX or SPF record and a notice, and operators are told what to configure`, async () => {
      const app = await startTestApp({ DNS_SERVERS: dns.address, PUBLIC_URL: 'http://127.0.0.1:8080', ...(hostname ? { MAIL_HOSTNAME: hostname } : {}) });
      try {
        const customer = await signUpCustomer(app);
        const domain = (await app.post('/api/admin/domain/create', { name: uniqueDomain() }, { token: customer.token })).data;
        const seen = (await app.get('/api/admin/domain/dns', { id: domain.id }, { token: customer.token })).data;
        expect(seen.records.map((r: { kind: string }) => r.kind)).toEqual(['verification', 'dkim', 'dmarc']);
        expect(JSON.stringify(seen.records)).not.toMatch(/127\.0\.0\.1|192\.0\.2\.10|2001:db8|a:|localhost/);
        expect(seen.notice).toEqual({ message: 'dns.mail_server_pending', params: {} });
        const operator = (await app.post('/api/manage/login/login', ROOT)).data.token;
        const managed = (await app.get('/api/manage/domain/dns', { id: domain.id }, { token: operator })).data;
        expect(managed.notice).toMatchObject({ message: 'dns.mail_hostname_invalid', params: { hostname: hostname ?? '127.0.0.1' } });
        expect(managed.records.map((r: { kind: string }) => r.kind)).toEqual(['verification', 'dkim', 'dmarc']);
      } finally {
        await app.close();
      }
    });
  }

  it('When MAIL_HOSTNAME is a public name, then MX and SPF name it and there is no notice', async () => {
    const domain = await mail.pendingDomain(a);
    const seen = (await t.get('/api/admin/domain/dns', { id: domain.id }, { token: a.token })).data;
    expect(seen.notice).toBeNull();
    expect(seen.records.find((r: { kind: string }) => r.kind === 'spf').value).toBe('v=spf1 mx a:mx.maildesk.test ~all');
  });
});
