/**
 * SQLite keeps its planner statistics in tables of its own (sqlite_stat1, sqlite_stat4), made
 * by the first ANALYZE. Made at a start without a migration (PRAGMA optimize, db/index.ts),
 * they changed the schema: Dovecot's and Postfix's SQLite lookups, which keep their prepared
 * statements, failed their next one ("database schema has changed", 450 4.7.1 to the sender).
 * Made here, the schema changes only when a migration runs; PRAGMA optimize then only
 * rewrites rows of them. PostgreSQL keeps its statistics outside the schema.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';

export function plannerStatistics(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'sqlite') await sql`ANALYZE`.execute(db);
    },
  };
}
