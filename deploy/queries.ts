/**
 * Every lookup the mail server makes, in one place. They read only the mail_* views of
 * migration 0002 (active records of active, verified domains of active customers), so a
 * change in the panel applies to the next message. `||` concatenates in SQLite and PostgreSQL.
 */

/** Postfix maps (%s the key, %u its local part, %d its domain). Order of the alias maps matters. */
export const postfixMaps = {
  domains: `SELECT name FROM mail_domain WHERE name = '%s'`,
  mailboxes: `SELECT address FROM mail_mailbox WHERE address = '%s'`,
  // 1. aliases and catch-alls, and every mailbox as an alias of itself (in the view);
  aliases: `SELECT goto FROM mail_alias WHERE address = '%s'`,
  // 2. user@alias-domain → whatever user@target-domain resolves to;
  aliasDomainAliases: `SELECT a.goto FROM mail_alias_domain ad JOIN mail_alias a ON a.address = '%u' || '@' || ad.target_domain WHERE ad.alias_domain = '%d'`,
  // 3. anything else @alias-domain → the target domain's catch-all.
  aliasDomainCatchAll: `SELECT a.goto FROM mail_alias_domain ad JOIN mail_alias a ON a.address = '@' || ad.target_domain WHERE ad.alias_domain = '%d'`,
  // Submission: who may send as an address — the mailbox itself, or the mailboxes an alias delivers to.
  senderLogins: `SELECT goto FROM mail_alias WHERE address = '%s'`,
} as const;

/** Dovecot passdb/userdb: the {SCHEME}-prefixed hash, the home under the mail store, the quota. */
export function dovecotQueries(mailDir: string) {
  const home = `'${mailDir.replace(/'/g, "''")}/' || domain || '/' || local_part`;
  return {
    password: `SELECT address AS user, password_hash AS password FROM mail_mailbox WHERE address = '%u'`,
    user: `SELECT ${home} AS home, '*:bytes=' || quota AS quota_rule FROM mail_mailbox WHERE address = '%u'`,
    iterate: `SELECT address AS user FROM mail_mailbox`,
  };
}

/** Views and table each daemon may touch (PostgreSQL grants). */
export const postfixReads = ['mail_domain', 'mail_mailbox', 'mail_alias', 'mail_alias_domain'];
export const dovecotReads = ['mail_mailbox'];
export const dovecotWrites = 'mailbox_usage';
