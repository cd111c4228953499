/**
 * What the mail server's rspamd reads and tells (deploy/templates/rspamd.ts), behind
 * MAIL_SERVER_TOKEN (HTTP basic auth for the maps, which rspamd sends from the map's URL; a bearer
 * token for reports):
 * - settings.map: "default", domain names and mailbox addresses with their own setting → "off" or
 *   "on:<junk>:<reject>";
 * - lists.map: "<domain or mailbox address>|<sender address or domain>" → allow or block;
 * both also under every alias domain of the domain (an alias domain as its target domain, and a
 * mailbox's entries at its address there: rspamd sees the address the sender wrote, before Postfix
 * rewrites it to the mailbox's own);
 * - report: one message's result (reports.ts).
 * The maps answer with an ETag: rspamd asks every few seconds, and an unchanged map costs a 304.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../core/services.js';
import { parseInput } from '../core/validation.js';
import { reportInput, takeReport } from './reports.js';
import { defaultsOf } from './settings.js';

const score = (tenths: number) => (tenths / 10).toFixed(1);
const value = (row: { filter: string; junk_tenths: number; reject_tenths: number }) => (row.filter === 'off' ? 'off' : `on:${score(row.junk_tenths)}:${score(row.reject_tenths)}`);

function sameSecret(given: string, expected: string) {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** The mail server's token, as a bearer token or as the password of HTTP basic auth. */
function presentsToken(request: FastifyRequest, token: string) {
  const header = String(request.headers.authorization ?? '');
  if (header.startsWith('Bearer ')) return sameSecret(header.slice(7).trim(), token);
  if (header.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    return sameSecret(decoded.slice(decoded.indexOf(':') + 1), token);
  }
  return false;
}

/** A mailbox's address at an alias domain of its domain. */
const atAliasDomain = (row: { local_part: string; alias_domain: string }) => `${row.local_part}@${row.alias_domain}`;

export async function settingsMap(services: Services): Promise<string> {
  const { db } = services;
  const defaults = await defaultsOf(db);
  const settings = ['s.filter', 's.junk_tenths', 's.reject_tenths'] as const;
  const domains = await db.selectFrom('spam_setting as s').innerJoin('domain as d', 'd.id', 's.domain_id').select(['d.name as key', ...settings]).where('s.mailbox_id', 'is', null).execute();
  // Each join below is an index read: alias_domain by target_domain_id, domain and mailbox by id.
  const aliasDomains = await db
    .selectFrom('spam_setting as s')
    .innerJoin('alias_domain as ad', 'ad.target_domain_id', 's.domain_id')
    .innerJoin('domain as a', 'a.id', 'ad.alias_domain_id')
    .select(['a.name as key', ...settings])
    .where('s.mailbox_id', 'is', null)
    .execute();
  const mailboxes = await db.selectFrom('spam_setting as s').innerJoin('mailbox as m', 'm.id', 's.mailbox_id').select(['m.address as key', ...settings]).execute();
  const mailboxesElsewhere = await db
    .selectFrom('spam_setting as s')
    .innerJoin('mailbox as m', 'm.id', 's.mailbox_id')
    .innerJoin('alias_domain as ad', 'ad.target_domain_id', 'm.domain_id')
    .innerJoin('domain as a', 'a.id', 'ad.alias_domain_id')
    .select(['m.local_part', 'a.name as alias_domain', ...settings])
    .execute();
  const rows = [...domains, ...aliasDomains, ...mailboxes, ...mailboxesElsewhere.map((row) => ({ ...row, key: atAliasDomain(row) }))];
  const lines = [`default ${value(defaults)}`, ...rows.map((row) => `${row.key} ${value(row)}`)];
  return `# Maildesk spam settings (a mailbox's, else its domain's, else the default)\n${lines.join('\n')}\n`;
}

export async function listsMap(services: Services): Promise<string> {
  const { db } = services;
  const rows = await db
    .selectFrom('spam_list as l')
    .innerJoin('domain as d', 'd.id', 'l.domain_id')
    .leftJoin('mailbox as m', 'm.id', 'l.mailbox_id')
    .select(['d.name as domain', 'm.address as mailbox', 'l.sender', 'l.action'])
    .orderBy('l.id')
    .execute();
  // The same entries at each alias domain of the list's domain (alias_domain by target_domain_id).
  const elsewhere = await db
    .selectFrom('spam_list as l')
    .innerJoin('alias_domain as ad', 'ad.target_domain_id', 'l.domain_id')
    .innerJoin('domain as a', 'a.id', 'ad.alias_domain_id')
    .leftJoin('mailbox as m', 'm.id', 'l.mailbox_id')
    .select(['a.name as alias_domain', 'm.local_part', 'l.sender', 'l.action'])
    .orderBy('l.id')
    .orderBy('a.id')
    .execute();
  const lines = [
    ...rows.map((row) => `${row.mailbox ?? row.domain}|${row.sender} ${row.action}`),
    ...elsewhere.map((row) => `${row.local_part === null ? row.alias_domain : atAliasDomain({ local_part: row.local_part, alias_domain: row.alias_domain })}|${row.sender} ${row.action}`),
  ];
  return `# Maildesk allow and block lists: recipient (mailbox or domain)|sender (address or domain)\n${lines.join('\n')}\n`;
}

async function sendMap(request: FastifyRequest, reply: FastifyReply, text: string) {
  const etag = `"${crypto.createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
  reply.header('etag', etag).header('cache-control', 'no-cache');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.type('text/plain; charset=utf-8').send(text);
}

export function registerMailServerRoutes(app: FastifyInstance, services: Services) {
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = services.config.mailServerToken;
    // Without a token configured the routes do not exist; a wrong one is refused.
    if (!token) return reply.code(404).send({ code: 40400, data: null, message: 'error.not_found' });
    if (!presentsToken(request, token)) return reply.code(401).header('www-authenticate', 'Basic realm="maildesk"').send({ code: 20000, data: null, message: 'error.session' });
  };
  app.get('/api/mail-server/spam/settings.map', { onRequest: guard }, async (request, reply) => sendMap(request, reply, await settingsMap(services)));
  app.get('/api/mail-server/spam/lists.map', { onRequest: guard }, async (request, reply) => sendMap(request, reply, await listsMap(services)));
  app.post('/api/mail-server/spam/report', { onRequest: guard }, async (request) => {
    await takeReport(services, parseInput(reportInput, request.body));
    return { code: 0, data: null, message: 'ok' };
  });
}
