/**
 * The bench's reference: a bare Fastify server on better-sqlite3 (statements prepared once)
 * or pg (named prepared statements), answering me/info and the customer's mailbox list with
 * the same queries and the same results as Maildesk, and creating a mailbox the least a server
 * can (the session, the body parsed, argon2id with our parameters on our hashing threads
 * (server/core/passwords.ts), one row inserted), and nothing else: no framework, no validation
 * library, no query builder. What Maildesk's figures are divided by.
 */
import crypto from 'node:crypto';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';
import { hashPassword } from '../server/core/passwords.js';

const infoColumns = 'u.id, u.owner_id, u.email, u.username, u.is_verified, u.status, u.points, u.storage_max, u.locale, u.last_login_at, u.created_at';
const mailboxColumns =
  'id, domain_id, local_part, address, address_unicode, name, quota, active, used_bytes, used_messages, delivery_checked_at, owner_id, created_at, updated_at, app_passwords_only, app_passwords';
const sessionSql = (p: (n: number) => string) =>
  `select s.expires_at, s.last_seen_at, ${infoColumns} from session s join "user" u on u.id = s.account_id
   where s.token_hash = ${p(1)} and s.actor = 'customer' and s.revoked_at is null`;
const listSql = (p: (n: number) => string) => `select ${mailboxColumns} from mailbox_view where owner_id = ${p(1)} order by id desc limit ${p(2)} offset ${p(3)}`;
const countSql = (p: (n: number) => string) => `select count(*) as total from mailbox where owner_id = ${p(1)}`;
// One statement: the row, its address from the customer's own domain (none when it is another's).
const createSql = (p: (n: number) => string) =>
  `insert into mailbox (owner_id, domain_id, local_part, address, address_unicode, password_hash, name, quota, active, created_at, updated_at)
   select d.owner_id, d.id, ${p(1)}, ${p(1)} || '@' || d.name, ${p(1)} || '@' || d.name_unicode, ${p(2)}, '', ${p(3)}, 1, ${p(4)}, ${p(4)}
   from domain d where d.id = ${p(5)} and d.owner_id = ${p(6)} returning id, address`;

type Account = Record<string, unknown> & { id: number; owner_id: number | null; status: string; is_verified: number; expires_at: string; last_seen_at: string };

interface Store {
  account(tokenHash: string): Promise<Account | undefined>;
  mailboxes(ownerId: number, limit: number, offset: number): Promise<{ list: unknown[]; total: number }>;
  create(values: [localPart: string, passwordHash: string, quota: number, at: string, domainId: number, ownerId: number]): Promise<{ id: number; address: string } | undefined>;
  close(): Promise<void>;
}

function sqliteStore(file: string): Store {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  const sqlite = () => '?';
  const session = db.prepare(sessionSql(sqlite));
  const list = db.prepare(listSql(sqlite));
  const count = db.prepare(countSql(sqlite));
  const create = db.prepare(createSql((n) => `@p${n}`));
  return {
    account: async (hash) => session.get(hash) as Account | undefined,
    mailboxes: async (ownerId, limit, offset) => ({ list: list.all(ownerId, limit, offset), total: (count.get(ownerId) as { total: number }).total }),
    create: async (values) => create.get(Object.fromEntries(values.map((v, i) => [`p${i + 1}`, v]))) as { id: number; address: string } | undefined,
    close: async () => void db.close(),
  };
}

function postgresStore(url: string): Store {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const dollar = (n: number) => `$${n}`;
  const query = async (name: string, text: string, values: unknown[]) => (await pool.query({ name, text, values })).rows;
  return {
    account: async (hash) => (await query('session', sessionSql(dollar), [hash]))[0],
    mailboxes: async (ownerId, limit, offset) => {
      const [list, count] = await Promise.all([query('list', listSql(dollar), [ownerId, limit, offset]), query('count', countSql(dollar), [ownerId])]);
      return { list, total: Number(count[0].total) };
    },
    create: async (values) => (await query('create', createSql(dollar), values))[0],
    close: () => pool.end(),
  };
}

const IDLE_MS = 12 * 60 * 60_000;

export async function startBare(options: { sqlitePath?: string; databaseUrl?: string }) {
  const store = options.databaseUrl ? postgresStore(options.databaseUrl) : sqliteStore(options.sqlitePath!);
  const app = Fastify();
  const unauthorised = { code: 20000, data: null, message: 'error.session' };
  const signedIn = async (token: unknown) => {
    if (typeof token !== 'string' || !token) return undefined;
    const account = await store.account(crypto.createHash('sha256').update(token).digest('hex'));
    const at = Date.now();
    if (!account || Date.parse(account.expires_at) <= at || Date.parse(account.last_seen_at) + IDLE_MS <= at || account.status !== 'active') return undefined;
    return account;
  };
  app.post('/api/admin/me/info', async (request, reply) => {
    const account = await signedIn(request.headers.authentication);
    if (!account) return reply.status(401).send(unauthorised);
    const { expires_at, last_seen_at, ...info } = account;
    return { code: 0, data: { ...info, is_owner: account.owner_id === null ? 1 : 0 }, message: 'ok' };
  });
  app.post('/api/admin/email/list', async (request, reply) => {
    const account = await signedIn(request.headers.authentication);
    if (!account) return reply.status(401).send(unauthorised);
    if (!account.is_verified) return reply.status(403).send({ code: 40100, data: null, message: 'error.not_verified' });
    const body = (request.body ?? {}) as { page?: number; page_size?: number };
    const page = Number(body.page ?? 1);
    const pageSize = Number(body.page_size ?? 20);
    const { list, total } = await store.mailboxes(account.owner_id ?? account.id, pageSize, (page - 1) * pageSize);
    return { code: 0, data: { list, total, page, page_size: pageSize }, message: 'ok' };
  });
  app.post('/api/admin/email/create', async (request, reply) => {
    const account = await signedIn(request.headers.authentication);
    if (!account) return reply.status(401).send(unauthorised);
    const body = (request.body ?? {}) as { domain_id?: number; local_part?: string; password?: string; quota?: number };
    const hash = `{ARGON2ID}${await hashPassword(String(body.password))}`;
    const at = new Date().toISOString();
    const row = await store.create([String(body.local_part).toLowerCase(), hash, Number(body.quota), at, Number(body.domain_id), account.owner_id ?? account.id]);
    if (!row) return reply.status(404).send({ code: 40400, data: null, message: 'error.not_found' });
    return { code: 0, data: { id: row.id, address: row.address }, message: 'ok' };
  });
  app.addHook('onClose', () => store.close());
  return app;
}
