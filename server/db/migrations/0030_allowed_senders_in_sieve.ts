/**
 * A sender a mailbox (or its domain) allows never lands in its Junk. rspamd scores a message once
 * for all its recipients: when another recipient has it scored, the allowing mailbox receives the
 * same X-Maildesk-Spam-Score, and its spam script (0022) filed it into Junk. The script now names
 * the senders the mailbox and its domain allow (envelope sender or From, an address or a whole
 * domain, as rspamd's lists match them) and leaves their mail where the owner's rules put it.
 * A blocked sender needs nothing here: rspamd takes the recipient off before delivery.
 *
 * The script's id changes with the allowed senders (their count, ids and lengths), so Pigeonhole
 * compiles it again at the next delivery after a change.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';

/** Sieve's CRLF, in SQL. */
const crlf = (dialect: Dialect) => (dialect === 'postgres' ? `E'\\r\\n'` : `char(13, 10)`);

/**
 * Where mailbox m's allowed senders are: its own list, and its domain's (entries for the whole
 * domain). Each read apart, as an equality on an index: one condition with OR between them was
 * read as a scan of spam_list on PostgreSQL.
 */
const scopes = {
  own: 'l.mailbox_id = m.id',
  domain: 'l.domain_id = m.domain_id AND l.mailbox_id IS NULL',
} as const;

/** One scope's allowed senders that are addresses (`@`) or domains, as a Sieve string list's items (none: NULL). */
function allowedIn(dialect: Dialect, scope: keyof typeof scopes, kind: 'address' | 'domain') {
  // A sender as a Sieve quoted string: backslash and quote escaped.
  const quoted = `'"' || replace(replace(l.sender, '\\', '\\\\'), '"', '\\"') || '"'`;
  const joined = dialect === 'postgres' ? `string_agg(${quoted}, ', ' ORDER BY l.id)` : `group_concat(${quoted}, ', ')`;
  return `(SELECT ${joined} FROM spam_list l WHERE ${scopes[scope]} AND l.action = 'allow' AND l.sender ${kind === 'address' ? '' : 'NOT '}LIKE '%@%')`;
}

/** Two lists' items as one, either of them NULL (none). */
const both = (a: string, b: string) => `coalesce(${a} || ', ' || ${b}, ${a}, ${b})`;

/** The mailbox's allowed addresses or domains, its own and its domain's. */
const allowedOf = (dialect: Dialect, kind: 'address' | 'domain') => both(allowedIn(dialect, 'own', kind), allowedIn(dialect, 'domain', kind));

/** What makes the script's id change with one scope's allowed senders (none: no mark). */
const markOf = (scope: keyof typeof scopes) => `(SELECT CASE WHEN count(*) = 0 THEN '' ELSE '-${scope[0]}' || count(*) || '.' || sum(l.id) || '.' || sum(length(l.sender)) END
    FROM spam_list l WHERE ${scopes[scope]} AND l.action = 'allow')`;
const allowedMark = `${markOf('own')} || ${markOf('domain')}`;

/** The spam script of a mailbox whose effective setting is e (filter, junk_tenths, allowed addresses and domains). */
function spamScript(dialect: Dialect) {
  const nl = crlf(dialect);
  // NULL when there is no such sender (a NULL list makes its whole test NULL).
  const addressTests = `'envelope :all :is "from" [' || e.allowed_addresses || '], address :all :is "from" [' || e.allowed_addresses || ']'`;
  const domainTests = `'envelope :domain :is "from" [' || e.allowed_domains || '], address :domain :is "from" [' || e.allowed_domains || ']'`;
  const allowedTests = both(addressTests, domainTests);
  return `CASE WHEN e.filter = 'off' THEN '# Made by Maildesk: spam filtering is off for this mailbox.' || ${nl}
    ELSE 'require ["fileinto", "mailbox", "relational", "comparator-i;ascii-numeric", "envelope"];' || ${nl}
      || '# Made by Maildesk: mail rspamd scored at or over this mailbox''s junk score goes to Junk, before the owner''s rules;' || ${nl}
      || '# a sender the mailbox or its domain allows stays where the owner''s rules put it.' || ${nl}
      || 'if allof (header :value "ge" :comparator "i;ascii-numeric" "X-Maildesk-Spam-Score" "' || e.junk_tenths || '"'
      || coalesce(', not anyof (' || ${allowedTests} || ')', '') || ') {' || ${nl}
      || '  fileinto :create "Junk";' || ${nl} || '  stop;' || ${nl} || '}' || ${nl} END`;
}

export function allowedSendersInSieve(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      // The mailbox owners' scripts (0019) and, for every mailbox that receives, its spam script.
      const view = sql.raw(`SELECT mm.address, 'active' AS name, s.script_id, s.script
        FROM mailbox_sieve s JOIN mailbox m ON m.id = s.mailbox_id JOIN mail_mailbox mm ON mm.address = m.address
        UNION ALL
        SELECT e.address, 'spam' AS name,
          CASE WHEN e.filter = 'off' THEN 'spam-off' ELSE 'spam-' || e.junk_tenths || coalesce(e.allowed_mark, '') END AS script_id,
          ${spamScript(dialect)} AS script
        FROM (SELECT mm.address,
            coalesce(sm.filter, sd.filter, g.filter) AS filter,
            coalesce(sm.junk_tenths, sd.junk_tenths, g.junk_tenths) AS junk_tenths,
            ${allowedOf(dialect, 'address')} AS allowed_addresses,
            ${allowedOf(dialect, 'domain')} AS allowed_domains,
            ${allowedMark} AS allowed_mark
          FROM mail_mailbox mm JOIN mailbox m ON m.address = mm.address
          JOIN spam_default g ON g.id = 1
          LEFT JOIN spam_setting sm ON sm.mailbox_id = m.id
          LEFT JOIN spam_setting sd ON sd.domain_id = m.domain_id AND sd.mailbox_id IS NULL) e`);
      if (dialect === 'postgres') {
        // Replaced in place: Dovecot's role keeps its grant on it.
        await sql`CREATE OR REPLACE VIEW mail_sieve AS ${view}`.execute(db);
      } else {
        await sql`DROP VIEW mail_sieve`.execute(db);
        await sql`CREATE VIEW mail_sieve AS ${view}`.execute(db);
      }
    },
  };
}
