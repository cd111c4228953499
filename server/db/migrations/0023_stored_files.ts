/**
 * Files every instance reaches (server/core/files.ts): kept in the database by default, one row
 * per file under the key its record names (a ticket attachment's stored_name). With an
 * S3-compatible store configured this table stays empty.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../index.js';

export function storedFiles(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('stored_file')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('data', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
