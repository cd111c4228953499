/**
 * Every query the mail server runs (deploy/queries.ts) with Postfix's substitutions for sample
 * keys, and a seed of many customers' mail records, shared by the mail suite (EXPLAIN at 100k
 * rows) and `npm run bench` (bench/mail-lookups.ts, at a million).
 */
import { dkimKeys, dovecotQueries, postfixMaps, sieveDict } from '../../deploy/queries.js';

export interface LookupSample {
  domain: string;
  aliasDomain: string;
  /** Local parts of a mailbox and of an alias of `domain`. */
  mailbox: string;
  alias: string;
}

/** Postfix's %s, %u and %d (SQL-quoted keys; the samples need no quoting). */
const fill = (query: string, key: string) => {
  const [u, d] = key.split('@');
  return query.replaceAll('%s', key).replaceAll('%u', u).replaceAll('%d', d);
};

export function lookupQueries(s: LookupSample, kind: 'sqlite' | 'postgres' = 'sqlite'): { name: string; sql: string }[] {
  const keys: Record<keyof typeof postfixMaps, string> = {
    domains: s.domain,
    mailboxes: `${s.mailbox}@${s.domain}`,
    aliases: `${s.alias}@${s.domain}`,
    aliasDomainAliases: `${s.mailbox}@${s.aliasDomain}`,
    aliasDomainCatchAll: `whoever@${s.aliasDomain}`,
    senderLogins: `${s.mailbox}@${s.domain}`,
    aliasDomainSenderLogins: `${s.mailbox}@${s.aliasDomain}`,
    localSender: `${s.mailbox}@${s.domain}`,
    quotaFull: `whoever@${s.aliasDomain}`,
    heldLogin: `${s.mailbox}@${s.domain}`,
    storeTransport: `${s.mailbox}@${s.domain}`,
  };
  const dovecot = dovecotQueries('/var/vmail', kind);
  const user = `${s.mailbox}@${s.domain}`;
  /** Dovecot's variables: the user, the password's first four characters, the client, the app password's id; %% is %. */
  const dovecotFill = (query: string) =>
    query.replaceAll('%u', user).replaceAll('%4w', 'abcd').replaceAll('%r', '127.0.0.1').replaceAll('%{passdb:maildesk_app_password}', '1').replaceAll('%%', '%');
  // What Dovecot's SQL dict asks for Pigeonhole's two keys (the user is the view's address column).
  const [nameMap, dataMap] = sieveDict.maps;
  return [
    ...Object.entries(postfixMaps).map(([name, query]) => ({ name: `postfix ${name}`, sql: fill(query, keys[name as keyof typeof postfixMaps]) })),
    // Dovecot's %u is the whole user name (the address).
    { name: 'dovecot password', sql: dovecotFill(dovecot.password) },
    { name: 'dovecot app password', sql: dovecotFill(dovecot.appPassword) },
    { name: 'dovecot app password use', sql: dovecotFill(dovecot.appPasswordUse) },
    { name: 'sieve name', sql: `SELECT ${nameMap.valueField} FROM ${sieveDict.view} WHERE name = '${sieveDict.scriptName}' AND address = '${user}'` },
    { name: 'sieve spam name', sql: `SELECT ${nameMap.valueField} FROM ${sieveDict.view} WHERE name = '${sieveDict.spamScriptName}' AND address = '${user}'` },
    { name: 'sieve data', sql: `SELECT ${dataMap.valueField} FROM ${sieveDict.view} WHERE script_id = 'seed-${user}' AND address = '${user}'` },
    { name: 'dovecot user', sql: dovecot.user.replaceAll('%u', `${s.mailbox}@${s.domain}`) },
    { name: 'opendkim key', sql: `SELECT ${dkimKeys.data.join(', ')} FROM ${dkimKeys.view} WHERE ${dkimKeys.key} = '${s.domain}'` },
  ];
}

/**
 * The steps of a lookup's plan that read a whole table: PostgreSQL's sequential scans; SQLite's
 * SCAN of a table (not of a constant row, nor of the rows a co-routine or a materialized
 * subquery of the lookup made, such as the UNION ALL of mail_alias after its index reads).
 */
export function tableScans(dialect: 'sqlite' | 'postgres', plan: string[]): string[] {
  // spam_default is one row (the operators' defaults), mail_store a row per mail host (tens at most):
  // reading either whole is one page at any number of mailboxes.
  if (dialect === 'postgres') return plan.filter((step) => /Seq Scan/.test(step) && !/Seq Scan on (spam_default|mail_store)\b/.test(step));
  const made = new Set(plan.flatMap((step) => /^\s*(?:CO-ROUTINE|MATERIALIZE) (.+)$/.exec(step)?.[1] ?? []));
  // SQLite names a table by its alias: the views read spam_default as g (migrations 0022 and 0030). With
  // planner statistics saying it has one row, SQLite reads it first, whole (as after any restart's PRAGMA optimize).
  const oneRow = /^(spam_default|g)\b/;
  return plan.filter((step) => {
    const scanned = /^\s*SCAN (.+?)(?: USING .*)?$/.exec(step)?.[1];
    return scanned !== undefined && scanned !== 'CONSTANT ROW' && !made.has(scanned) && !oneRow.test(scanned);
  });
}

/**
 * `rows` customers, each with an active verified domain seed<id>.test, a mailbox m@ with its usage
 * (every tenth also with an app password and a Sieve script), and an alias a@; the first half of those domains are alias
 * domains of the second half.
 */
export function seedStatements(dialect: 'sqlite' | 'postgres', rows: number): string[] {
  const numbers = dialect === 'postgres' ? `SELECT i FROM generate_series(1, ${rows}) i` : `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${rows}) SELECT i FROM s`;
  const at = "'2026-01-01T00:00:00.000Z'";
  const half = Math.floor(rows / 2);
  return [
    `INSERT INTO "user" (email, username, password_hash, is_verified, status, storage_max, created_at, updated_at)
      SELECT 'seed' || i || '@seed.test', '', 'x', 1, 'active', 0, ${at}, ${at} FROM (${numbers}) n`,
    `INSERT INTO domain (owner_id, name, name_unicode, status, verified_at, verify_token, dkim_selector, dkim_private_key, dkim_public_key, created_at, updated_at)
      SELECT u.id, 'seed' || u.id || '.test', 'seed', 'active', ${at}, 't', 's', 'k', 'k', ${at}, ${at} FROM "user" u WHERE u.email LIKE 'seed%@seed.test'`,
    `INSERT INTO mailbox (owner_id, domain_id, local_part, address, address_unicode, password_hash, quota, created_at, updated_at)
      SELECT d.owner_id, d.id, 'm', 'm@' || d.name, 'm@' || d.name, 'x', 1048576, ${at}, ${at} FROM domain d WHERE d.name_unicode = 'seed'`,
    `INSERT INTO mailbox_usage (address, bytes, messages) SELECT 'm@' || d.name, 10, 1 FROM domain d WHERE d.name_unicode = 'seed'`,
    `INSERT INTO app_password (mailbox_id, name, selector, password_hash, created_at, created_ip)
      SELECT m.id, 'seed', 'abcd', 'x', ${at}, '' FROM mailbox m JOIN domain d ON d.id = m.domain_id WHERE d.name_unicode = 'seed' AND m.id % 10 = 0`,
    `INSERT INTO mailbox_sieve (mailbox_id, script_id, script, updated_at)
      SELECT m.id, 'seed-' || m.address, 'keep;', ${at} FROM mailbox m JOIN domain d ON d.id = m.domain_id WHERE d.name_unicode = 'seed' AND m.id % 10 = 0`,
    // Spam: every tenth domain and mailbox with a setting of its own, every hundredth mailbox held.
    `INSERT INTO spam_setting (owner_id, domain_id, mailbox_id, filter, junk_tenths, reject_tenths, updated_at, updated_by)
      SELECT d.owner_id, d.id, NULL, 'on', 50, 120, ${at}, 'seed' FROM domain d WHERE d.name_unicode = 'seed' AND d.id % 10 = 0`,
    `INSERT INTO spam_setting (owner_id, domain_id, mailbox_id, filter, junk_tenths, reject_tenths, updated_at, updated_by)
      SELECT m.owner_id, m.domain_id, m.id, 'on', 40, 100, ${at}, 'seed' FROM mailbox m JOIN domain d ON d.id = m.domain_id WHERE d.name_unicode = 'seed' AND m.id % 10 = 5`,
    // Allowed senders, a domain's and a mailbox's own: the spam script names them (0030).
    `INSERT INTO spam_list (owner_id, domain_id, mailbox_id, sender, action, created_at)
      SELECT d.owner_id, d.id, NULL, 'partner-' || d.id || '.example', 'allow', ${at} FROM domain d WHERE d.name_unicode = 'seed' AND d.id % 10 = 0`,
    `INSERT INTO spam_list (owner_id, domain_id, mailbox_id, sender, action, created_at)
      SELECT m.owner_id, m.domain_id, m.id, 'friend-' || m.id || '@partner.example', 'allow', ${at} FROM mailbox m JOIN domain d ON d.id = m.domain_id WHERE d.name_unicode = 'seed' AND m.id % 10 = 5`,
    `INSERT INTO spam_hold (mailbox_id, owner_id, address, reason, detail, held_at)
      SELECT m.id, m.owner_id, m.address, 'rate', 'seed', ${at} FROM mailbox m JOIN domain d ON d.id = m.domain_id WHERE d.name_unicode = 'seed' AND m.id % 100 = 0`,
    `INSERT INTO alias (owner_id, domain_id, local_part, address, address_unicode, goto, created_at, updated_at)
      SELECT d.owner_id, d.id, 'a', 'a@' || d.name, 'a@' || d.name, 'm@' || d.name, ${at}, ${at} FROM domain d WHERE d.name_unicode = 'seed'`,
    `INSERT INTO alias_domain (owner_id, alias_domain_id, target_domain_id, created_at, updated_at)
      SELECT a.owner_id, a.id, a.id + ${half}, ${at}, ${at} FROM domain a
      WHERE a.name_unicode = 'seed' AND a.id < (SELECT min(id) FROM domain WHERE name_unicode = 'seed') + ${half}`,
  ];
}

/** A seeded alias domain in the middle of the seed, its target, and their sample local parts. */
export const seededSampleSql = (rows: number) =>
  `SELECT a.name AS alias_domain, t.name AS domain FROM alias_domain ad JOIN domain a ON a.id = ad.alias_domain_id JOIN domain t ON t.id = ad.target_domain_id
   WHERE ad.alias_domain_id = (SELECT min(id) FROM domain WHERE name_unicode = 'seed') + ${Math.floor(rows / 4)}`;
