/**
 * A refused report's detail becomes a message key with parameters (the operator reads it in their
 * language): the parameters are kept beside it as JSON. Rows from before keep their English text
 * as the detail, with no parameters, and are shown as they are.
 */
import type { Kysely } from 'kysely';

export function refusalDetailParams() {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('report_refusal').addColumn('detail_params', 'text', (c) => c.notNull().defaultTo('{}')).execute();
    },
  };
}
