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
import { messageText } from '../../resources/messages.js';
import { reachable } from '../../server/imports/mail-copy/source-address.js';

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

/** Mail copy set up; the old servers of these tests are on this machine, which the operator allows (only 127.0.0.1). */
const copyEnv = () => ({
  MAIL_COPY_IMAP: `imap://127.0.0.1:${closedPort}`,
  MAIL_COPY_MASTER_USER: 'maildesk-copy',
  MAIL_COPY_MASTER_PASSWORD: 'master-password-1',
  SECRET_KEY: crypto.randomBytes(32).toString('base64'),
});

beforeAll(async () => {
  closedPort = await freePort();
  t = await startTestApp({ ...copyEnv(), MAIL_COPY_ALLOW_NETWORKS: '127.0.0.1/32' });
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

  it('When copies for a domain are started, then 100 start in one call and 101 are refused with a translated 40000 that starts none (pattern and accounts)', { timeout: 120_000 }, async () => {
    const owner = await mailboxOwner(t);
    const mail = mailFixtures(t);
    const boxes = [owner.id];
    for (let i = 1; i < 100; i++) boxes.push((await mail.mailbox(owner.customer.token, owner.domainId)).id);
    const { password: _p, source_user: _u, ...server } = source();
    const accounts = (ids: number[]) => ids.map((mailbox_id) => ({ mailbox_id, source_user: `old${mailbox_id}`, password: PASSWORD }));
    const copies = async () => (await t.get('/api/admin/mail_copy/list', { filter: { domain_id: owner.domainId } }, { token: owner.customer.token })).data.total;

    // One past, by accounts: 101 listed.
    const listedPast = await t.post('/api/admin/mail_copy/create_for_domain', { domain_id: owner.domainId, ...server, accounts: accounts([...boxes, boxes[0] + 1_000_000]) }, { token: owner.customer.token });
    expect(listedPast).toMatchObject({ status: 400, code: 40000 });
    expect(listedPast.errors?.accounts).toMatchObject({ message: 'validation.too_many', params: { max: 100 } });
    expect(await copies()).toBe(0);
    // At the limit, by pattern: the domain's 100 mailboxes.
    const byPattern = await t.post('/api/admin/mail_copy/create_for_domain', { domain_id: owner.domainId, ...server, user_pattern: '%e', password: PASSWORD }, { token: owner.customer.token });
    expect(byPattern.data?.list, JSON.stringify(byPattern)).toHaveLength(100);
    await t.services.jobs.drain();

    // One past, by pattern: a 101st mailbox.
    boxes.push((await mail.mailbox(owner.customer.token, owner.domainId)).id);
    const patternPast = await t.post('/api/admin/mail_copy/create_for_domain', { domain_id: owner.domainId, ...server, user_pattern: '%e', password: PASSWORD }, { token: owner.customer.token });
    expect(patternPast).toMatchObject({ status: 400, code: 40000 });
    expect(patternPast.errors?.user_pattern).toMatchObject({ message: 'validation.mail_copy_too_many', params: { count: 101, max: 100, smart_count: 100 } });
    const tooMany = patternPast.errors!.user_pattern;
    expect(messageText('en', tooMany.message, tooMany.params)).toBe('This domain has more active mailboxes (101) than copies may start at once: list the accounts instead, up to 100 in each start.');
    expect(messageText('zh', tooMany.message, tooMany.params)).toContain('已启用邮箱（101 个）');
    expect(await copies()).toBe(100);
    // At the limit, by accounts: 100 listed.
    const listed = await t.post('/api/admin/mail_copy/create_for_domain', { domain_id: owner.domainId, ...server, accounts: accounts(boxes.slice(1)) }, { token: owner.customer.token });
    expect(listed.data?.list, JSON.stringify(listed)).toHaveLength(100);
    await t.services.jobs.drain();
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

/** A server on this machine that does `onSocket` with each connection; closed with its connections. */
async function listener(onSocket: (socket: net.Socket) => void) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => sockets.size,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('mail copy: the panel\'s own network', () => {
  it('When a customer names the panel\'s own machine or a private network, in any spelling, then a translated 40000 refuses it and nothing is started', async () => {
    // No MAIL_COPY_ALLOW_NETWORKS: only the internet.
    const strict = await startTestApp(copyEnv());
    const listening = await listener(() => undefined);
    try {
      const owner = await mailboxOwner(strict);
      const hosts = ['localhost', '127.0.0.1', '127.1', '0.0.0.0', '[::1]', '2130706433', '0x7f000001', '0177.0.0.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '[fe80::1]', '[fd00::1]', '[::]'];
      for (const source_host of hosts) {
        const reply = await strict.post('/api/admin/mail_copy/create', { mailbox_id: owner.id, ...source({ source_host, source_port: listening.port }) }, { token: owner.customer.token });
        expect(reply, source_host).toMatchObject({ status: 400, code: 40000 });
        expect(reply.errors?.source_host?.message, source_host).toBe('validation.mail_copy_host_not_allowed');
      }
      const { password: _p, source_user: _u, ...server } = source({ source_host: '127.1', source_port: listening.port });
      const forDomain = await strict.post('/api/admin/mail_copy/create_for_domain', { domain_id: owner.domainId, ...server, user_pattern: '%e', password: PASSWORD }, { token: owner.customer.token });
      expect(forDomain.errors?.source_host?.message).toBe('validation.mail_copy_host_not_allowed');
      // Said in both languages.
      expect(messageText('en', 'validation.mail_copy_host_not_allowed')).toMatch(/private or local network/);
      expect(messageText('zh', 'validation.mail_copy_host_not_allowed')).toMatch(/内网/);
      // Nothing started, nothing reached.
      expect((await strict.get('/api/admin/mail_copy/list', {}, { token: owner.customer.token })).data.total).toBe(0);
      await strict.services.jobs.drain();
      expect(listening.connections()).toBe(0);
    } finally {
      await listening.close();
      await strict.close();
    }
  });

  it('When the operator allows 127.0.0.1/32, then a copy from 127.0.0.1 starts and one from 127.0.0.2 is still refused', async () => {
    const owner = await mailboxOwner(t);
    const at = await t.post('/api/admin/mail_copy/create', { mailbox_id: owner.id, ...source({ source_host: '127.0.0.1' }) }, { token: owner.customer.token });
    expect(at).toMatchObject({ code: 0, data: { source_host: '127.0.0.1', state: 'queued' } });
    await t.services.jobs.drain();
    const second = await mailboxOwner(t);
    const past = await t.post('/api/admin/mail_copy/create', { mailbox_id: second.id, ...source({ source_host: '127.0.0.2' }) }, { token: second.customer.token });
    expect(past).toMatchObject({ status: 400, code: 40000 });
    expect(past.errors?.source_host?.message).toBe('validation.mail_copy_host_not_allowed');
  });

  it('When an address is at the edge of a private range, then the range decides (IPv4, IPv6, and IPv4 carried in IPv6)', () => {
    const edges: [string, boolean][] = [
      ['172.15.255.255', true],
      ['172.16.0.0', false],
      ['172.31.255.255', false],
      ['172.32.0.0', true],
      ['9.255.255.255', true],
      ['10.0.0.0', false],
      ['100.63.255.255', true],
      ['100.64.0.0', false],
      ['126.255.255.255', true],
      ['127.0.0.0', false],
      ['223.255.255.255', true],
      ['224.0.0.0', false],
      ['2001:4860:4860::8888', true],
      ['::1', false],
      ['::ffff:10.0.0.1', false],
      ['::ffff:8.8.8.8', true],
      ['64:ff9b::7f00:1', false],
      ['64:ff9b::808:808', true],
      ['2002:7f00:1::', false],
      ['fe80::1', false],
      ['fc00::1', false],
      ['fbff:ffff::1', true],
    ];
    for (const [address, ok] of edges) expect(reachable(address, []), address).toBe(ok);
    expect(reachable('10.1.2.3', ['10.1.2.0/24'])).toBe(true);
    expect(reachable('10.1.3.0', ['10.1.2.0/24'])).toBe(false);
    expect(reachable('::ffff:10.1.2.3', ['10.1.2.0/24'])).toBe(true);
  });

  it('When a copy cannot reach the old server, then it says the same whatever is there (closed, reset, silent, not IMAP, not TLS), with no detail', { timeout: 90_000 }, async () => {
    const reset = await listener((socket) => socket.resetAndDestroy());
    const silent = await listener(() => undefined);
    const smtp = await listener((socket) => socket.write('220 mail.example ESMTP\r\n'));
    const servers = { closed: { port: closedPort, tls: 'starttls' }, reset: { port: reset.port, tls: 'starttls' }, silent: { port: silent.port, tls: 'starttls' }, plaintext_smtp: { port: smtp.port, tls: 'tls' } };
    try {
      const copies: Record<string, number> = {};
      for (const [kind, server] of Object.entries(servers)) {
        const owner = await mailboxOwner(t);
        const started = await t.post('/api/admin/mail_copy/create', { mailbox_id: owner.id, ...source({ source_port: server.port, source_tls: server.tls }) }, { token: owner.customer.token });
        expect(started.code, kind).toBe(0);
        copies[kind] = started.data.id;
      }
      await t.services.jobs.drain();
      const ends = await t.services.db.selectFrom('mail_copy').select(['id', 'state', 'error', 'error_detail']).where('id', 'in', Object.values(copies)).execute();
      for (const [kind, id] of Object.entries(copies)) {
        expect(ends.find((c) => Number(c.id) === id), kind).toMatchObject({ state: 'failed', error: 'error.mail_copy_unreachable', error_detail: null });
      }
    } finally {
      await Promise.all([reset.close(), silent.close(), smtp.close()]);
    }
  });
});

describe('mail copy: long work beside the mail people wait for', () => {
  let lanes: TestApp;
  beforeAll(async () => {
    // Workers that poll often (on PostgreSQL nothing else wakes them); three for copies, two of them one customer's.
    lanes = await startTestApp({ ...copyEnv(), MAIL_COPY_ALLOW_NETWORKS: '127.0.0.1/32', JOB_POLL_MS: '200', MAIL_COPY_WORKERS: '3', MAIL_COPY_PER_CUSTOMER: '2' });
  });
  afterAll(() => lanes.close());

  const until = async (what: string, check: () => Promise<boolean> | boolean, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('When a customer\'s 15 copies wait on a silent server, then another customer\'s password-reset mail goes out within seconds, another customer\'s copy runs at once, and the first customer runs 2 copies at a time', { timeout: 60_000 }, async () => {
    const silent = await listener(() => undefined);
    try {
      // Made first: signing up reads the outbox, which waits for every job.
      const waiting = await signUpCustomer(lanes);
      const other = await mailboxOwner(lanes);
      const busy = await mailboxOwner(lanes);
      const mail = mailFixtures(lanes);
      for (let i = 0; i < 14; i++) await mail.mailbox(busy.customer.token, busy.domainId);
      const { password: _p, source_user: _u, ...server } = source({ source_port: silent.port });
      const started = await lanes.post('/api/admin/mail_copy/create_for_domain', { domain_id: busy.domainId, ...server, user_pattern: '%e', password: PASSWORD }, { token: busy.customer.token });
      expect(started.data?.list, JSON.stringify(started)).toHaveLength(15);
      await until('two copies connected', () => silent.connections() === 2);

      // The password reset of a customer who has nothing to do with the copies.
      const asked = Date.now();
      expect((await lanes.post('/api/admin/login/forgot_password_send_email', { email: waiting.email }, { ip: '10.9.8.7' })).code).toBe(0);
      const sent = () => lanes.services.db.selectFrom('email_send_log').select('status').where('recipient', '=', waiting.email).where('template_key', '=', 'password_reset').executeTakeFirst();
      await until('the reset mail sent', async () => (await sent())?.status === 'sent', 5000);
      const waited = Date.now() - asked;
      console.log(`password-reset mail sent ${waited} ms after it was asked for, beside 15 copies on a silent server`);
      expect(waited).toBeLessThan(5000);

      // Another customer's copy (its old server down) runs and ends while the 15 still wait.
      const theirs = await lanes.post('/api/admin/mail_copy/create', { mailbox_id: other.id, ...source() }, { token: other.customer.token });
      expect(theirs.code).toBe(0);
      const state = async () => (await lanes.get('/api/admin/mail_copy/get', { id: theirs.data.id }, { token: other.customer.token })).data;
      await until('the other customer\'s copy ended', async () => (await state()).state === 'failed', 5000);
      expect(await state()).toMatchObject({ error: 'error.mail_copy_unreachable' });

      // The busy customer's share: 2 copies at once (a third worker free), the other 13 queued, as the operators' job screen says.
      expect(silent.connections()).toBe(2);
      const summary = await lanes.post('/api/manage/job/summary', {}, { token: await mail.operator() });
      expect(summary.data.find((line: { name: string }) => line.name === 'mail_copy.run')).toMatchObject({ active: 2, queued: 13 });
    } finally {
      // The silent server hangs up: the copies end (unreachable) one after another.
      await silent.close();
      await lanes.services.jobs.drain();
    }
  });
});
