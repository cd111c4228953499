/** Mail records made through the API: capacity, domains (verified by an operator), mailboxes, aliases. */
import crypto from 'node:crypto';
import type { TestApp } from './app.js';
import { operatorLogin, signUpCustomer, someIp, type CustomerSession } from './fixtures.js';

export const MiB = 1024 ** 2;
export const GiB = 1024 ** 3;

export const uniqueDomain = (prefix = 'd') => `${prefix}${crypto.randomBytes(4).toString('hex')}.example`;

async function ok<T = any>(reply: Promise<{ code: number; data: T; message: string; errors?: unknown }>, what: string): Promise<T> {
  const r = await reply;
  if (r.code !== 0) throw new Error(`${what} failed: ${r.code} ${r.message} ${JSON.stringify(r.errors ?? '')}`);
  return r.data;
}

export function mailFixtures(t: TestApp) {
  let root: Promise<string> | undefined;
  const operator = () => (root ??= operatorLogin(t));
  return {
    operator,
    /** An operator grants the customer a capacity block. */
    async grant(customerId: number, size: number, extra: Record<string, unknown> = {}) {
      return ok(t.post('/api/manage/storage/create', { owner_id: customerId, size, ...extra }, { token: await operator() }), 'grant');
    },
    /** The customer adds a domain; it stays pending. */
    async pendingDomain(customer: CustomerSession, name = uniqueDomain()) {
      return ok(t.post('/api/admin/domain/create', { name }, { token: customer.token }), `domain ${name}`);
    },
    /** The customer adds a domain and an operator marks it verified (active). */
    async activeDomain(customer: CustomerSession, name = uniqueDomain()) {
      const domain = await this.pendingDomain(customer, name);
      return ok(t.post('/api/manage/domain/update', { id: domain.id, status: 'active' }, { token: await operator() }), 'activate');
    },
    // Six random bytes: the authorization matrix makes about a thousand mailboxes in one domain, and with three
    // two of them took the same name now and then (a birthday collision: "validation.taken").
    async mailbox(token: string, domainId: number, localPart = `u${crypto.randomBytes(6).toString('hex')}`, extra: Record<string, unknown> = {}) {
      return ok(t.post('/api/admin/email/create', { domain_id: domainId, local_part: localPart, password: 'mailbox-pass-1', quota: MiB, ...extra }, { token }), 'mailbox');
    },
    async alias(token: string, domainId: number, goto: string | string[], localPart = `a${crypto.randomBytes(6).toString('hex')}`) {
      return ok(t.post('/api/admin/alias/create', { domain_id: domainId, local_part: localPart, goto }, { token }), 'alias');
    },
  };
}

/** A mailbox owner signed in to /api/mail: a customer with capacity, an active domain and the mailbox, all made through the API. */
export async function mailboxOwner(t: TestApp, customer?: CustomerSession, options: { domainId?: number; localPart?: string; password?: string } = {}) {
  const mail = mailFixtures(t);
  customer ??= await signUpCustomer(t);
  if (!options.domainId) await mail.grant(customer.id, GiB);
  const domainId = options.domainId ?? (await mail.activeDomain(customer)).id;
  const password = options.password ?? 'mailbox-pass-1';
  const box = await mail.mailbox(customer.token, domainId, options.localPart, { password });
  const token = await ok<{ token: string }>(t.post('/api/mail/login/login', { email: box.address, password }, { ip: someIp() }), 'mailbox sign-in');
  return { customer, domainId: domainId as number, id: box.id as number, address: box.address as string, password, token: token.token };
}
