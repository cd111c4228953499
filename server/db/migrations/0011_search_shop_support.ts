/**
 * The shop's and the support desk's searched columns get their substring indexes (FTS5
 * trigram / pg_trgm), as 0008 gave the earlier tables: `q` on products, promotions, orders,
 * the points ledger, tickets and canned replies reads an index at a million rows.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { searchIndex } from './helpers.js';

const searched: Record<string, string[]> = {
  product: ['name_zh', 'name_en'],
  activity: ['name_zh', 'name_en', 'code'],
  shop_order: ['product_name_zh', 'product_name_en'],
  points_ledger: ['note'],
  ticket: ['subject'],
  canned_reply: ['title'],
};

export function searchShopSupport(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      for (const [table, columns] of Object.entries(searched)) await searchIndex(db, dialect, table, columns);
    },
  };
}
