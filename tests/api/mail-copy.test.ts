/**
 * Bringing the mail through the API: starting a copy for a mailbox or a domain, who may, what is
 * refused, and that the old server's password is never in any answer, log or job view. The copy
 * itself against real IMAP servers is in the mail suite (tests/mail/mail-copy.ts); here the old
 * server is a closed port, so a started copy fails fast and says why.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorWithRole, signUpCustomer, teamMemberOf } from '../helpers/fixtures.js';
import { mailboxOwner, mailFixtures } from '../helpers/mail-fixtures.js';

const PASSWORD = `old-server-${crypto.randomBytes(6).toString('hex')}`;
let t: TestApp;
let closedPort: number;

/** A port nothing listens on: the old server "down". */
async function freePort() {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  closedPort = await freePort();
  t = await startTestApp({
    MAIL_COPY_IMAP: `imap://127.0.0.1:${closedPort}`,
    MAIL_COPY_MASTER_USER: 'maildesk-copy',
    MAIL_COPY_MASTER_PASSWORD: 'master-password-1',
    SECRET_KEY: crypto.randomBytes(32).toString('base64'),
  });
});
afterAll(() => t.close());

const source = (extra: Record<string, unknown> = {}) => ({ source_host: '127.0.0.1', source_port: closedPort, source_tls: 'starttls', source_user: 'anna', password: PASSWORD, ...extra });

describe('mail copy', () => {
  it('When a customer starts a copy into a mailbox, then it is queued with the old server named, and the password is in no answer', async () => {
    const owner = await mailboxOwner(t);
    // An old server that takes the connection and never greets: the copy waits while we look.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as net.AddressInfo).port;
    const started = await t.post('/api/admin/mail_copy/create', { mailbox_id: owner.id, ...source({ source_port: silentPort }) }, { token: owner.customer.token });
    expect(started).toMatchObject({ code: 0, data: { mailbox_id: owner.id, address: owner.address, source_host: '127.0.0.1', source_port: silentPort, source_tls: 'starttls', source_user: 'anna', state: 'queued', total_messages: 0 } });
    expect(JSON.stringify(started)).not.toContain(PASSWORD);
    const answers = [
      await t.get('/api/admin/mail_copy/get', { id: started.data.id }, { token: owner.customer.token }),
      await t.get('/api/admin/mail_copy/list', { filter: { mailbox_id: owner.id } }, { token: owner.customer.token }),
      await t.get('/api/mail/mail_copy/list', {}, { token: owner.token }),
      await t.get('/api/mail/mail_copy/get', { id: started.data.id }, { token: owner.token }),
      await t.get('/api/manage/mail_copy/list', {}, { token: await mailFixtures(t).operator() }),
      await t.post('/api/admin/log/list', { page_size: 50 }, { token: owner.customer.token }),
      await t.post('/api/manage/log/list', { page_size: 50 }, { token: await mailFixtures(t).operator() }),
      await t.post('/api/manage/job/list', { name: 'mail_copy.run' }, { token: await mailFixtures(t).operator() }),
    ];
    for (const answer of answers) {
      expect(answer.code, JSON.stringify(answer)).toBe(0);
      expect(JSON.stringify(answer)).not.toContain(PASSWORD);
    }
    expect(answers[2].data.list.map((c: { id: number }) => c.id)).toEqual([started.data.id]);
    // Kept only sealed (AES-GCM), never as typed.
    const sealed = await t.services.db.selectFrom('mail_copy_secret').select('secret').where('copy_id', '=', started.data.id).executeTakeFirstOrThrow();
    expect(sealed.secret).toMatch(/^v1\./);
    expect(sealed.secret).not.toContain(PASSWORD);

    // A second start while it is unfinished is refused.
    const again = await t.post('/api/admin/mail_copy/create', { mailbox_id: owner.id, ...source() }, { token: owner.customer.token });
    expect(again).toMatchObject({ status: 409, code: 40900, message: 'error.mail_copy_running' });

    // The old server hangs up: the copy ends failed, says why, and its password is gone.
    for (const socket of sockets) socket.destroy();
    silent.close();
    await t.services.jobs.drain();
    const ended = await t.get('/api/mail/mail_copy/get', { id: started.data.id }, { token: owner.token });
    expect(ended.data).toMatchObject({ state: 'failed', error: 'error.mail_copy_unreachable', finished_at: expect.any(String) });
    expect(await t.services.db.selectFrom('mail_copy_secret').select('copy_id').where('copy_id', '=', started.data.id).executeTakeFirst()).toBeUndefined();
    // Then it may be started again.
    expect((await t.post('/api/admin/mail_copy/create', { mailbox_id: owner.id, ...source() }, { token: owner.customer.token })).code).toBe(0);
  });

  it('When the old server is named wrongly, then a translated 40000 answers with the field, and nothing is started', async () => {
    const owner = await mailboxOwner(t);
    const tries: [Record<string, unknown>, string][] = [
      [source({ source_host: 'not a host!' }), 'source_host'],
      [source({ source_port: 70000 }), 'source_port'],
      [source({ source_port: 0 }), 'source_port'],
      [source({ source_tls: 'none' }), 'source_tls'],
      [source({ source_user: '' }), 'source_user'],
      [source({ password: '' }), 'password'],
      [{ ...source(), password: undefined }, 'password'],
    ];
    for (const [body, field] of tries) {
      const reply = await t.post('/api/admin/mail_copy/create', { mailbox_id: owner.id, ...body }, { token: owner.customer.token });
      expect(reply, JSON.stringify(body)).toMatchObject({ status: 400, code: 40000 });
      expect(reply.errors?.[field], JSON.stringify(reply)).toBeDefined();
      expect(JSON.stringify(reply)).not.toContain(PASSWORD);
    }
    const host = await t.post('/api/admin/mail_copy/create', { mailbox_id: owner.id, ...source({ source_host: 'a b' }) }, { token: owner.customer.token, locale: 'zh' });
    expect(host.errors?.source_host?.message).toBe('validation.mail_copy_host');
    const list = await t.get('/api/admin/mail_copy/list', { filter: { mailbox_id: owner.id } }, { token: owner.customer.token });
    expect(list.data.total).toBe(0);
  });

  it('When another customer, a team member of another domain or a mailbox owner tries, then the mailbox is not found or the call is not theirs', async () => {
    const owner = await mailboxOwner(t);
    const other = await signUpCustomer(t);
    expect(await t.post('/api/admin/mail_copy/create', { mailbox_id: owner.id, ...source() }, { token: other.token })).toMatchObject({ code: 40400 });
    const mail = mailFixtures(t);
    const secondDomain = await mail.activeDomain(owner.customer);
    const member = await teamMemberOf(t, owner.customer, { domain_ids: [secondDomain.id] });
    expect(await t.post('/api/admin/mail_copy/create', { mailbox_id: owner.id, ...source() }, { token: member.token })).toMatchObject({ code: 40400 });
    expect(await t.post('/api/admin/mail_copy/create_for_domain', { domain_id: owner.domainId, ...source({ source_user: undefined, password: undefined }), user_pattern: '%e', password: PASSWORD }, { token: other.token })).toMatchObject({ code: 40400 });
    // The mailbox owners' area only reads.
    expect((await t.post('/api/mail/mail_copy/create', { mailbox_id: owner.id, ...source() }, { token: owner.token })).status).toBe(404);
    // A billing operator may look, not start.
    const billing = await operatorWithRole(t, 'billing');
    expect(await t.post('/api/manage/mail_copy/create', { mailbox_id: owner.id, ...source() }, { token: billing.token })).toMatchObject({ code: 40300 });
    const support = await operatorWithRole(t, 'support');
    const byOperator = await t.post('/api/manage/mail_copy/create', { mailbox_id: owner.id, ...source() }, { token: support.token });
    expect(byOperator).toMatchObject({ code: 0, data: { started_by: expect.stringMatching(/^operator:/) } });
    // Another customer's list never shows it; another mailbox's owner neither.
    expect((await t.get('/api/admin/mail_copy/list', {}, { token: other.token })).data.total).toBe(0);
    expect((await t.get('/api/admin/mail_copy/get', { id: byOperator.data.id }, { token: other.token })).code).toBe(40400);
    const neighbour = await mailboxOwner(t, owner.customer, { domainId: owner.domainId });
    expect((await t.get('/api/mail/mail_copy/list', {}, { token: neighbour.token })).data.total).toBe(0);
    expect((await t.get('/api/mail/mail_copy/get', { id: byOperator.data.id }, { token: neighbour.token })).code).toBe(40400);
    expect((await t.get('/api/admin/mail_copy/list', {}, { token: owner.customer.token })).data.list.map((c: { id: number }) => c.id)).toContain(byOperator.data.id);
  });

  it('When a customer starts copies for a domain, then each active mailbox gets one with its user from the pattern, or the accounts listed', async () => {
    const owner = await mailboxOwner(t);
    const mail = mailFixtures(t);
    const second = await mail.mailbox(owner.customer.token, owner.domainId, 'bert');
    const off = await mail.mailbox(owner.customer.token, owner.domainId, 'gone');
    await t.post('/api/admin/email/update', { id: off.id, active: 0 }, { token: owner.customer.token });
    const { password: _p, source_user: _u, ...server } = source();
    const started = await t.post('/api/admin/mail_copy/create_for_domain', { domain_id: owner.domainId, ...server, user_pattern: '%u*admin', password: PASSWORD }, { token: owner.customer.token });
    expect(started.code, JSON.stringify(started)).toBe(0);
    expect(started.data.list.map((c: { address: string; source_user: string }) => [c.address, c.source_user]).sort()).toEqual(
      [
        [owner.address, `${owner.address.split('@')[0]}*admin`],
        [second.address, 'bert*admin'],
      ].sort(),
    );
    expect(JSON.stringify(started)).not.toContain(PASSWORD);
    await t.services.jobs.drain();

    const other = await mailboxOwner(t);
    const wrong = await t.post('/api/admin/mail_copy/create_for_domain', { domain_id: owner.domainId, ...server, accounts: [{ mailbox_id: other.id, source_user: 'x', password: PASSWORD }] }, { token: owner.customer.token });
    expect(wrong).toMatchObject({ code: 40000 });
    expect(wrong.errors?.['accounts.0.mailbox_id']?.message).toBe('validation.mail_copy_not_of_domain');
    const both = await t.post('/api/admin/mail_copy/create_for_domain', { domain_id: owner.domainId, ...server, user_pattern: '%e', password: PASSWORD, accounts: [{ mailbox_id: second.id, source_user: 'x', password: PASSWORD }] }, { token: owner.customer.token });
    expect(both).toMatchObject({ code: 40000 });
    const listed = await t.post('/api/admin/mail_copy/create_for_domain', { domain_id: owner.domainId, ...server, accounts: [{ mailbox_id: second.id, source_user: 'bert.old', password: PASSWORD }] }, { token: owner.customer.token });
    expect(listed.data.list).toMatchObject([{ address: second.address, source_user: 'bert.old', state: 'queued' }]);
  });

  it('When mail copy is not set up on the installation, then starting one says so', async () => {
    const bare = await startTestApp();
    try {
      const owner = await mailboxOwner(bare);
      const reply = await bare.post('/api/admin/mail_copy/create', { mailbox_id: owner.id, ...source() }, { token: owner.customer.token });
      expect(reply).toMatchObject({ status: 409, code: 40900, message: 'error.mail_copy_not_set_up' });
    } finally {
      await bare.close();
    }
  });
});
