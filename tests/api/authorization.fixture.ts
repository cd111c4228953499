/** The callers of the authorization matrix and the records their tries read or change. */
import crypto from 'node:crypto';
import type { TestApp } from '../helpers/app.js';
import { operatorLogin, operatorWithRole, signUpCustomer, someIp, teamMemberOf, uniqueEmail } from '../helpers/fixtures.js';
import { GiB, mailboxOwner, mailFixtures, MiB, uniqueDomain } from '../helpers/mail-fixtures.js';
import type { Caller } from './authorization.matrix.js';
// Second factors.
import { SoftAuthenticator } from '../helpers/authenticator.js';
import { addPasskey, totpCode, type Area } from '../helpers/second-factor.js';
// Shop.
import { shopFixtures } from '../helpers/shop-fixtures.js';
import { emptyPostfixAdmin } from '../helpers/postfixadmin.js';
import { mailSendJob } from '../../server/outbox/mailer.js';
// Support (tickets)
import { openTicket, png } from '../helpers/support.js';

const firstOf = { admin: 'customerA', manage: 'superadmin', mail: 'mailboxA' } as const;

let pfaSource: Promise<string> | undefined;

export async function buildFixture(t: TestApp) {
  const customerA = await signUpCustomer(t);
  const customerB = await signUpCustomer(t);
  const memberA = await teamMemberOf(t, customerA);
  const [superadmin, support, billing] = [await operatorWithRole(t, 'superadmin'), await operatorWithRole(t, 'support'), await operatorWithRole(t, 'billing')];
  const root = await operatorLogin(t);
  const accounts = {
    customerA: { login: customerA.email, password: customerA.password, token: customerA.token },
    customerB: { login: customerB.email, password: customerB.password, token: customerB.token },
    memberA: { login: memberA.email, password: memberA.password, token: memberA.token },
    superadmin: { login: superadmin.username, password: superadmin.password, token: superadmin.token },
    support: { login: support.username, password: support.password, token: support.token },
    billing: { login: billing.username, password: billing.password, token: billing.token },
  } as Record<Exclude<Caller, 'anonymous'>, { login: string; password: string; token: string }>;

  const created = async (reply: Promise<{ code: number; data: { id: number } }>, what: string) => {
    const { code, data } = await reply;
    if (code !== 0) throw new Error(`fixture ${what} failed with code ${code}`);
    return data.id;
  };
  const newest = async (url: string, token: string, method: 'GET' | 'POST' = 'POST') => {
    const reply = method === 'GET' ? await t.get(url, { sort: 'id', order: 'desc', page_size: 1 }, { token }) : await t.post(url, { sort: 'id', order: 'desc', page_size: 1 }, { token });
    return reply.data.list[0].id as number;
  };

  const mail = hostedMail(t, { ...customerA, get token() { return accounts.customerA.token; } }, memberA.id);
  // Two mailboxes of customer A, signed in to the mailbox owners' area.
  for (const caller of ['mailboxA', 'mailboxB'] as const) {
    const owner = await mailboxOwner(t, { ...customerA, token: accounts.customerA.token }, { domainId: await mail.domainOfA() });
    accounts[caller] = { login: owner.address, password: owner.password, token: owner.token };
  }

  return {
    tokenOf: (caller: Caller) => (caller === 'anonymous' ? '' : accounts[caller].token),
    passwordOf: (caller: Caller) => (caller === 'anonymous' ? '' : accounts[caller].password),
    /** A new session of the caller, for calls that end or reset the one they use. */
    async freshToken(caller: Caller): Promise<string> {
      if (caller === 'anonymous') return '';
      const { login, password } = accounts[caller];
      const isOperator = caller === 'superadmin' || caller === 'support' || caller === 'billing';
      const isMailbox = caller === 'mailboxA' || caller === 'mailboxB';
      const reply = isOperator
        ? await t.post('/api/manage/login/login', { username: login, password }, { ip: someIp() })
        : await t.post(isMailbox ? '/api/mail/login/login' : '/api/admin/login/login', { email: login, password }, { ip: someIp() });
      if (reply.code !== 0) throw new Error(`fresh session for ${caller} failed: ${reply.message}`);
      return reply.data.token;
    },
    /** After a call that ended the caller's other sessions (a password change), sign in again. */
    async renewSession(caller: Caller) {
      if (caller !== 'anonymous') accounts[caller].token = await this.freshToken(caller);
    },
    // Second factors: a right code for an enrolment the caller starts in an area (a made-up one
    // where the caller may not start one), a device's answer to the area's passkey options, and
    // a passkey of the area's first person (customer A, superadmin, mailbox A).
    async totpEnrolmentCode(caller: Caller, area: Area) {
      const started = await t.post(`/api/${area}/second_factor/totp_start`, {}, { token: this.tokenOf(caller) });
      return started.code === 0 ? totpCode(started.data.secret) : '123456';
    },
    async passkeyAnswer(caller: Caller, area: Area) {
      const options = await t.post(`/api/${area}/second_factor/passkey_options`, {}, { token: this.tokenOf(caller) });
      if (options.code !== 0) return { challenge_token: 'none', response: { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: 'e30' } } };
      return { challenge_token: options.data.challenge_token, response: new SoftAuthenticator(t.config.publicUrl).create(options.data.options) };
    },
    passkeyOfFirst: async (area: Area) => (await addPasskey(t, area, accounts[firstOf[area]].token, new SoftAuthenticator(t.config.publicUrl))).id,
    newEmail: () => uniqueEmail('matrix'),
    newName: () => `m${crypto.randomBytes(5).toString('hex')}`,
    teamMemberOfA: async () => (await teamMemberOf(t, accounts.customerA)).id,
    // Team-member invitations (issue 8): a pending one of A's, and a link to accept one.
    invitationOfA: async () => {
      const reply = await t.post('/api/admin/user/create', { email: uniqueEmail('invited') }, { token: accounts.customerA.token });
      if (reply.code !== 0) throw new Error(`fixture invitation failed with code ${reply.code}`);
      return reply.data.invitation.id as number;
    },
    async invitationLink() {
      const email = uniqueEmail('invited');
      await t.post('/api/admin/user/create', { email }, { token: accounts.customerA.token });
      return t.invitationToken(email);
    },
    logEntryOfA: () => newest('/api/admin/log/list', accounts.customerA.token),
    operator: () => created(t.post('/api/manage/admin/create', { username: `op${crypto.randomBytes(4).toString('hex')}`, password: 'operator-pass-1', role: 'support' }, { token: root }), 'operator'),
    customer: () => created(t.post('/api/manage/user/create', { email: uniqueEmail(), password: 'customer-pass-1' }, { token: root }), 'customer'),
    mailStore: () => created(t.post('/api/manage/mail_store/create', { name: `s${crypto.randomBytes(4).toString('hex')}`, address: 'store.example.net' }, { token: root }), 'mail store'),
    template: () => created(t.post('/api/manage/email_template/create', { key: `k${crypto.randomBytes(4).toString('hex')}`, locale: 'en', subject: 'S', body: 'B' }, { token: root }), 'template'),
    async sendLogEntry() {
      await t.post('/api/admin/login/register', { email: uniqueEmail('mailed'), password: 'password-123' }, { ip: someIp() });
      await t.services.jobs.drain();
      return newest('/api/manage/email_send_log/list', root, 'GET');
    },
    // Durable jobs: a message waiting to be sent (its job is queued for tomorrow), by its job's id.
    async queuedJob() {
      const { db, jobs } = t.services;
      await jobs.enqueue(db, mailSendJob, { sendLogId: 0, key: 'account_exists', locale: 'en', to: 'nobody@example.com', params: {}, messageId: '<matrix@example.com>' }, { startAfter: new Date(Date.now() + 86_400_000) });
      return (await jobs.list({ name: 'mail.send', state: 'queued', page: 1, pageSize: 1 })).list[0].id;
    },
    async guestMessage() {
      await t.post('/api/message/send', { name: 'Visitor', email: 'visitor@example.com', content: 'Hello' }, { ip: someIp() });
      return newest('/api/manage/guest_message/list', root, 'GET');
    },
    root,
    // Support (tickets): opened by member A, with a file.
    ...(() => {
      let shared: ReturnType<typeof openTicket> | undefined;
      const ticket = () => (shared ??= openTicket(t, accounts.memberA.token, {}, [{ name: 'a.png', content: png }]));
      return {
        ticketOfMemberA: async () => (await ticket()).id,
        newTicketOfMemberA: async () => (await openTicket(t, accounts.memberA.token)).id,
        attachmentOfMemberA: async () => (await ticket()).messages[0].attachments[0].id,
        cannedReply: () => created(t.post('/api/manage/canned_reply/create', { title: 'Hi', body: 'Hello' }, { token: root }), 'canned reply'),
      };
    })(),
    ...mail,
    /** A second session of the caller's (a fresh sign-in), by id: what session/end tries to end. */
    async sessionOf(caller: Caller): Promise<number> {
      await this.freshToken(caller);
      return Number((await t.services.db.selectFrom('session').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id);
    },
    /** An API key made by member A (which customer A sees too), or by an operator. */
    apiKeyOf: (caller: 'memberA' | 'superadmin') =>
      created(t.post(`/api/${caller === 'memberA' ? 'admin' : 'manage'}/api_key/create`, { name: 'Matrix', access: 'read', confirmation: accounts[caller].password }, { token: accounts[caller].token }), 'API key'),
    /** An app password of mailbox A's. */
    appPasswordOfMailboxA: () => created(t.post('/api/mail/app_password/create', { name: 'Laptop' }, { token: accounts.mailboxA.token }), 'app password'),
    /** A finished copy into mailbox A. */
    async mailCopyOfMailboxA() {
      const box = await t.services.db.selectFrom('mailbox').select(['id', 'address', 'owner_id', 'domain_id']).where('address', '=', accounts.mailboxA.login).executeTakeFirstOrThrow();
      return mailCopyInto(t, { id: Number(box.id), address: box.address, owner_id: box.owner_id, domain_id: box.domain_id });
    },
    // Spam (issue 23): an entry on mailbox A's own sender list.
    spamListOfMailboxA: () => created(t.post('/api/mail/spam_list/create', { sender: `${crypto.randomBytes(4).toString('hex')}.example`, action: 'block' }, { token: accounts.mailboxA.token }), 'spam list entry'),
    ...shop(t, { ...customerA, get token() { return accounts.customerA.token; } }),
    importCsv: (caller: Caller) => mail.importCsvFor(caller, accounts.customerB.token),
    importRunOfA: async () => created(t.post('/api/admin/imports/csv_start', await mail.importCsvFor('memberA', ''), { token: accounts.memberA.token }), 'import run'),
    postfixAdminSource: () => (pfaSource ??= emptyPostfixAdmin()),
  };
}

/** Shop records: products and promotions (the provider's), customer A's orders and ledger rows. */
function shop(t: TestApp, customerA: Awaited<ReturnType<typeof signUpCustomer>>) {
  const fx = shopFixtures(t);
  let product: Promise<number> | undefined;
  const productId = () => (product ??= fx.storageProduct({ price: 1 }).then((p) => p.id as number));
  const pendingOrderOfA = async () => (await fx.order(customerA.token, { product_id: await productId() })).id as number;
  return {
    productId,
    newProduct: async () => (await fx.storageProduct()).id as number,
    activity: async () => (await fx.promotion([await productId()], { value: 1 })).id as number,
    pendingOrderOfA,
    /** A pending order of A and the point to pay it with. */
    async payableOrderOfA() {
      await fx.grantPoints(customerA.id, 1);
      return pendingOrderOfA();
    },
    async paidOrderOfA() {
      await fx.grantPoints(customerA.id, 1);
      return (await fx.order(customerA.token, { product_id: await productId(), pay_with: 'points' })).id as number;
    },
    async ledgerEntryOfA() {
      await fx.grantPoints(customerA.id, 1);
      const row = await t.services.db.selectFrom('points_ledger').select('id').where('user_id', '=', customerA.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
      return Number(row.id);
    },
  };
}

/**
 * Customer A's mail records. Those that member A's tries use are in domains member A
 * manages (domain_ids), so the member may and customer B may not.
 */
function hostedMail(t: TestApp, customerA: Awaited<ReturnType<typeof signUpCustomer>>, memberId: number) {
  const mail = mailFixtures(t);
  const memberDomains: number[] = [];
  const forMember = async (id: number) => {
    memberDomains.push(id);
    const reply = await t.post('/api/admin/user/update', { id: memberId, domain_ids: memberDomains }, { token: customerA.token });
    if (reply.code !== 0) throw new Error(`member domains failed: ${reply.message}`);
    return id;
  };
  let shared: Promise<number> | undefined;
  /** An active domain of A that member A manages, with capacity for the mailboxes the tries make. */
  const domainOfA = () =>
    (shared ??= (async () => {
      await mail.grant(customerA.id, 1024 * GiB);
      return forMember((await mail.activeDomain(customerA)).id);
    })());
  return {
    domainOfA,
    newDomainName: () => uniqueDomain('m'),
    /** A fresh, empty domain of A that member A manages. */
    emptyDomainOfA: async () => forMember((await mail.pendingDomain(customerA)).id),
    /** A fresh, empty domain of A, for delete. */
    deletableDomainOfA: async () => (await mail.pendingDomain(customerA)).id as number,
    mailboxOfA: async () => (await mail.mailbox(customerA.token, await domainOfA())).id as number,
    // Mailbox deletion (issue 12): a mailbox of A that A deleted (restorable), by its deleted_email id.
    async deletedMailboxOfA() {
      const id = (await mail.mailbox(customerA.token, await domainOfA())).id as number;
      const reply = await t.post('/api/admin/email/delete', { id }, { token: customerA.token });
      if (reply.code !== 0) throw new Error(`mailbox delete failed: ${reply.message}`);
      const row = await t.services.db.selectFrom('deleted_mailbox').select('id').where('mailbox_id', '=', id).where('state', '=', 'pending').executeTakeFirstOrThrow();
      return Number(row.id);
    },
    aliasOfA: async () => (await mail.alias(customerA.token, await domainOfA(), 'someone@example.org')).id as number,
    newLocalPart: () => `x${crypto.randomBytes(4).toString('hex')}`,
    async aliasDomainOfA() {
      const target = await domainOfA();
      const alias = await forMember((await mail.pendingDomain(customerA)).id);
      const reply = await t.post('/api/admin/alias_domain/create', { alias_domain_id: alias, target_domain_id: target }, { token: customerA.token });
      if (reply.code !== 0) throw new Error(`alias domain failed: ${reply.message}`);
      return reply.data.id as number;
    },
    storageOfA: async () => (await mail.grant(customerA.id, 10 * MiB)).id as number,
    // Spam (issue 23): an entry on the sender list of A's domain; a mailbox of A that is held.
    spamListOfA: async () => (await t.post('/api/admin/spam_list/create', { domain_id: await domainOfA(), sender: `${crypto.randomBytes(4).toString('hex')}.example`, action: 'allow' }, { token: customerA.token })).data.id as number,
    async heldMailboxOfA() {
      const box = await mail.mailbox(customerA.token, await domainOfA());
      await t.services.db.insertInto('spam_hold').values({ mailbox_id: box.id, owner_id: customerA.id, address: box.address, reason: 'spam', held_at: new Date().toISOString() }).execute();
      return box.id as number;
    },
    customerAId: customerA.id,
    // Imports (issue 25): a CSV file the caller may import (an alias in a domain of theirs), and a run member A started.
    async importCsvFor(caller: string, tokenOfB: string) {
      let name = (await t.services.db.selectFrom('domain').select('name').where('id', '=', await domainOfA()).executeTakeFirstOrThrow()).name;
      if (caller === 'customerB') name = (await mail.pendingDomain({ token: tokenOfB } as typeof customerA)).name as string;
      return { csv: `type,address,destinations\nalias,i${crypto.randomBytes(4).toString('hex')}@${name},someone@example.org\n` };
    },
    // Bringing the mail (issue 25): a finished copy into a fresh mailbox of A, made as the job leaves one.
    async mailCopyOfA() {
      const box = await mail.mailbox(customerA.token, await domainOfA());
      return mailCopyInto(t, { id: box.id, address: box.address, owner_id: customerA.id, domain_id: await domainOfA() });
    },
    // Storage over time (issue 10): a block of customer A's that expires in 90 days.
    expiringStorageOfA: async () => (await mail.grant(customerA.id, 10 * MiB, { expires_at: new Date(Date.now() + 90 * 86_400_000).toISOString() })).id as number,
  };
}

export type Fixture = Awaited<ReturnType<typeof buildFixture>>;

/** A copy row as a finished run leaves it (no password kept). */
async function mailCopyInto(t: TestApp, box: { id: number; address: string; owner_id: number; domain_id: number }) {
  const at = new Date().toISOString();
  const row = await t.services.db
    .insertInto('mail_copy')
    .values({ owner_id: box.owner_id, domain_id: box.domain_id, mailbox_id: box.id, address: box.address, source_host: 'imap.old.example', source_port: 993, source_tls: 'tls', source_user: box.address, state: 'done', started_by: 'customer:matrix', created_at: at, updated_at: at, finished_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
