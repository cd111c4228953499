/** Hardening: the customer's view of their audit log, which says "an operator" and nothing about them. */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';

export function hardening(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      const masked = (column: string, empty: string) =>
        sql.raw(`CASE WHEN actor_type = 'operator' THEN ${empty} ELSE ${column} END AS ${column}`);
      await sql`CREATE VIEW customer_log_view AS
        SELECT id, user_id, actor_type, ${masked('actor_id', 'NULL')}, ${masked('actor_name', "''")}, action, target_type, target_id,
          before, after, ${masked('ip', "''")}, ${masked('user_agent', "''")}, created_at
        FROM log`.execute(db);
    },
  };
}
