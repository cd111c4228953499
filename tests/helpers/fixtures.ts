/** Data factories: accounts made through the API, the way a person would make them. */
import crypto from 'node:crypto';
import { ROOT, type TestApp } from './app.js';

export const uniqueEmail = (prefix = 'customer') => `${prefix}-${crypto.randomBytes(4).toString('hex')}@example.com`;
/** A distinct client address per caller, so that per-IP limits of one test do not touch another. */
export const someIp = () => `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;

export interface CustomerSession {
  id: number;
  email: string;
  password: string;
  token: string;
}

/** register → code from the outbox → verify: a verified customer with a live session. */
export async function signUpCustomer(t: TestApp, email = uniqueEmail(), password = 'customer-pass-1'): Promise<CustomerSession> {
  const ip = someIp();
  const registered = await t.post('/api/admin/login/register', { email, password }, { ip });
  if (registered.code !== 0) throw new Error(`register failed: ${JSON.stringify(registered)}`);
  const verified = await t.post('/api/admin/login/verify', { email, code: await t.lastCode(email) }, { ip });
  if (verified.code !== 0) throw new Error(`verify failed: ${JSON.stringify(verified)}`);
  return { id: verified.data.id, email, password, token: verified.data.token };
}

export async function operatorLogin(t: TestApp, username = ROOT.username, password = ROOT.password): Promise<string> {
  const reply = await t.post('/api/manage/login/login', { username, password }, { ip: someIp() });
  if (reply.code !== 0) throw new Error(`operator login failed: ${JSON.stringify(reply)}`);
  return reply.data.token;
}

/** A new operator of the given role, created by root, signed in. */
export async function operatorWithRole(t: TestApp, role: 'superadmin' | 'support' | 'billing') {
  const rootToken = await operatorLogin(t);
  const username = `${role}-${crypto.randomBytes(3).toString('hex')}`;
  const password = 'operator-pass-1';
  const created = await t.post('/api/manage/admin/create', { username, password, role }, { token: rootToken });
  if (created.code !== 0) throw new Error(`operator create failed: ${JSON.stringify(created)}`);
  return { id: created.data.id as number, username, password, token: await operatorLogin(t, username, password) };
}

/** A team member of a customer: invited by the customer, accepted from the e-mailed link, signed in. */
export async function teamMemberOf(t: TestApp, customer: Pick<CustomerSession, 'token'>, invitation: { username?: string; domain_ids?: number[] } = {}) {
  const email = uniqueEmail('member');
  const password = 'member-pass-1';
  const invited = await t.post('/api/admin/user/create', { email, username: 'Member', ...invitation }, { token: customer.token });
  if (invited.code !== 0) throw new Error(`member invitation failed: ${JSON.stringify(invited)}`);
  const invitationToken = await t.invitationToken(email);
  const accepted = await t.post('/api/admin/login/accept_invitation', { token: invitationToken, password }, { ip: someIp() });
  if (accepted.code !== 0) throw new Error(`invitation acceptance failed: ${JSON.stringify(accepted)}`);
  return { id: accepted.data.id as number, email, password, token: accepted.data.token as string, invitationToken };
}

/** A port nothing listens on (an old server that is down): a free one, chosen and let go. */
export { freePort as closedPort } from './smtp-sink.js';
