/**
 * Every list that takes `q` searches with it: the tables whose declarations had nothing to search
 * (team invitations, app passwords, sender lists, API keys, mail copies) get their searched
 * columns' substring indexes (FTS5 trigram / pg_trgm), as 0008 and 0011 gave the others.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { searchIndex } from './helpers.js';

const searched: Record<string, string[]> = {
  team_invitation: ['email', 'username'],
  app_password: ['name'],
  spam_list: ['sender'],
  api_key: ['name', 'prefix'],
  mail_copy: ['address', 'source_host', 'source_user'],
};

export function searchEveryList(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      for (const [table, columns] of Object.entries(searched)) await searchIndex(db, dialect, table, columns);
    },
  };
}
