/**
 * Every lookup the mail server makes, in one place. They read only the mail_* views of
 * migration 0017 (active records of active, verified domains of active customers),
 * so a change in the panel applies to the next message. `||` concatenates in SQLite and PostgreSQL.
 *
 * Each lookup must stay an index read at a million mailboxes on both databases
 * (tests/mail: EXPLAIN; bench/mail-lookups.ts). PostgreSQL cannot push a join key into the
 * mail_alias UNION ALL view, so an alias domain is first resolved to its target in a scalar
 * subquery and the view is then read with a constant address, which it pushes into both branches.
 */
import { mailboxHomeSql } from './mail-store.js';

/** The target domain of the alias domain %d (alias domains have one target). */
const targetOf = `(SELECT target_domain FROM mail_alias_domain WHERE alias_domain = '%d')`;

/** Postfix maps (%s the key, %u its local part, %d its domain; a query with an empty %u or %d is not run). */
export const postfixMaps = {
  domains: `SELECT name FROM mail_domain WHERE name = '%s'`,
  mailboxes: `SELECT address FROM mail_mailbox WHERE address = '%s'`,
  // 1. aliases and catch-alls, and every mailbox as an alias of itself (in the view);
  aliases: `SELECT goto FROM mail_alias WHERE address = '%s'`,
  // 2. user@alias-domain → whatever user@target-domain resolves to;
  aliasDomainAliases: `SELECT goto FROM mail_alias WHERE address = '%u@' || ${targetOf}`,
  // 3. anything else @alias-domain → the target domain's catch-all.
  aliasDomainCatchAll: `SELECT goto FROM mail_alias WHERE address = '@' || ${targetOf}`,
  // Submission: who may send as an address — the mailbox itself, or the mailboxes an alias
  // delivers to. Never a catch-all: Postfix also asks for "@domain", and %u is empty then.
  senderLogins: `SELECT goto FROM mail_alias WHERE address = '%u@%d'`,
  // … and the same address at an alias domain of its domain.
  aliasDomainSenderLogins: `SELECT goto FROM mail_alias WHERE address = '%u@' || ${targetOf}`,
  // Port 25: mail claiming a sender of a domain hosted here comes through submission, not from outside.
  localSender: `SELECT 'REJECT 5.7.1 Sender address of a domain hosted here: send through the submission port' FROM mail_domain WHERE name = '%d'`,
  // Submission: a mailbox held for sending spam (or far above its usual rate) may not send until
  // the customer or an operator releases it (server/spam/holds.ts); the key is the SASL login.
  heldLogin: `SELECT 'REJECT 5.7.1 This mailbox is held: it sent spam or far more mail than usual. Its provider has been told and can release it.' FROM mail_held_mailbox WHERE address = '%s'`,
  // RCPT: the mailbox an address resolves to (exactly as virtual_alias_maps orders it) is full.
  // Dovecot's quota-status only knows mailboxes, not aliases, alias domains or catch-alls.
  // One read of the aliases for the four keys, the first in that order winning (the alias
  // domain's target read once), then one of the full mailboxes.
  quotaFull: `WITH t AS (SELECT target_domain AS d FROM mail_alias_domain WHERE alias_domain = '%d')
    SELECT '552 5.2.2 Mailbox is full' FROM mail_mailbox_full WHERE address = (
      SELECT goto FROM mail_alias WHERE address IN ('%u@%d', (SELECT '%u@' || d FROM t), (SELECT '@' || d FROM t), '@%d')
      ORDER BY CASE WHEN address = '%u@%d' THEN 1 WHEN address = '@%d' THEN 4 WHEN substr(address, 1, 1) = '@' THEN 3 ELSE 2 END LIMIT 1)`.replace(/\s*\n\s*/g, ' '),
  // A front host (--role front): each mailbox's mail goes by LMTP to its store, asked at every delivery
  // (after the aliases resolved it). LMTP_PORT: the stores' --lmtp port, written in by the generator.
  storeTransport: `SELECT 'lmtp:inet:' || lmtp_host || ':LMTP_PORT' FROM mail_mailbox_store WHERE address = '%s'`,
} as const;

/**
 * Dovecot passdb/userdb: the {SCHEME}-prefixed hash, the home under the mail store (deploy/mail-store.ts), the quota.
 *
 * Logins go through a chain (templates/dovecot.ts): first the mailbox's app passwords, found by
 * the password's first four characters (`%4w`, stored in clear as `selector`, unique per mailbox);
 * after one of them verified, `appPasswordUse` records its last use and the client's address
 * (`%{passdb:maildesk_app_password}` is the id the first lookup returned, `%r` the remote address;
 * Postfix passes the SMTP client's address for SMTP AUTH); otherwise the main password, only for
 * mailboxes whose mail programs may use it (mail_mailbox_login: app_passwords_only = 0).
 * `%%` is a literal % in Dovecot's queries.
 */
export function dovecotQueries(mailDir: string, kind: 'sqlite' | 'postgres' = 'sqlite', proxy?: StoreProxy) {
  const home = mailboxHomeSql(mailDir);
  const now =
    kind === 'postgres'
      ? `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : `strftime('%%Y-%%m-%%dT%%H:%%M:%%fZ', 'now')`;
  // PostgreSQL: through a view that exposes only the id and the two columns Dovecot may write.
  const useTable = kind === 'postgres' ? 'mail_app_password_use' : 'app_password';
  const proxied = proxy ? `, ${proxyFields(proxy)}` : '';
  return {
    password: `SELECT address AS user, password_hash AS password${proxied} FROM mail_mailbox_login WHERE address = '%u'`,
    appPassword: `SELECT address AS user, password_hash AS password, id AS maildesk_app_password${proxied} FROM mail_app_password WHERE address = '%u' AND selector = '%4w'`,
    appPasswordUse: `UPDATE ${useTable} SET last_used_at = ${now}, last_used_ip = '%r' WHERE id = '%{passdb:maildesk_app_password}' RETURNING NULL AS password, 'Y' AS noauthenticate`,
    user: `SELECT ${home} AS home, '*:bytes=' || quota AS quota_rule FROM mail_mailbox WHERE address = '%u'`,
    iterate: `SELECT address AS user FROM mail_mailbox`,
  };
}

/** How a front host's Dovecot reaches the stores: their IMAP/POP3 port is the login's own (%{real_lport}), over STARTTLS unless plaintext was allowed. */
export interface StoreProxy {
  starttls: boolean;
}

/**
 * A front host's passdb fields (--role front): the login verified here is handed on to the mailbox's
 * store, found at this login, with the password the client gave (the store verifies it again); a
 * mailbox moved to another store is reached there at its next login.
 */
function proxyFields(proxy: StoreProxy) {
  const tls = proxy.starttls ? `, 'any-cert' AS starttls` : '';
  return `'y' AS proxy, (SELECT host FROM mail_mailbox_store WHERE address = '%u') AS host, '%{real_lport}' AS port${tls}`;
}

/**
 * Pigeonhole's dict storage of Sieve scripts (its doc: locations/dict.txt), read through Dovecot's
 * SQL dict on the mail_sieve view: `priv/sieve/name/active` → the script's id, then
 * `priv/sieve/data/<id>` → the script. The panel writes a new id whenever the script changes
 * (mailbox_sieve.script_id), so Pigeonhole compiles again exactly then; a mailbox without a row
 * has no script (implicit keep). `priv/` keys are the user's: the view's `address` column.
 */
export const sieveDict = {
  view: 'mail_sieve',
  scriptName: 'active',
  /** Run before the owner's own script (sieve_before): files mail scored over the mailbox's junk score into Junk. */
  spamScriptName: 'spam',
  maps: [
    { pattern: 'priv/sieve/name/$name', valueField: 'script_id', fields: { name: '$name' } },
    { pattern: 'priv/sieve/data/$id', valueField: 'script', fields: { script_id: '$id' } },
  ],
} as const;

/** OpenDKIM's KeyTable and SigningTable: one row per signing domain (keyed by its name). */
export const dkimKeys = { view: 'mail_dkim_key', key: 'domain', data: ['domain', 'selector', 'private_key'] } as const;

/** Views and table each daemon may touch (PostgreSQL grants). */
export const postfixReads = ['mail_domain', 'mail_mailbox', 'mail_alias', 'mail_alias_domain', 'mail_mailbox_full', 'mail_held_mailbox', 'mail_mailbox_store'];
export const dovecotReads = ['mail_mailbox', 'mail_mailbox_login', 'mail_app_password', sieveDict.view, 'mail_mailbox_store'];
export const dovecotWrites = 'mailbox_usage';
/** PostgreSQL: the view through which Dovecot records an app password's last use (id, last_used_at, last_used_ip). */
export const dovecotUpdates = 'mail_app_password_use';
export const opendkimReads = [dkimKeys.view];
