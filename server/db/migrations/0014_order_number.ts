/**
 * Orders get a number for people (on the order's page, in lists, in mails and tickets that
 * ask about one), like tickets have: the database id stays out of sight. Orders made before
 * get one now; SQLite cannot add a NOT NULL column to a filled table, so there the unique
 * index and the shop's insert keep every order numbered.
 */
import { sql, type Kysely } from 'kysely';
import { readableNumber } from '../../core/readable-number.js';
import type { Dialect } from '../index.js';

const BATCH = 1000;

export function orderNumber(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('shop_order').addColumn('number', 'text').execute();
      const given = new Set<string>();
      for (;;) {
        const rows = await db.selectFrom('shop_order').select('id').where('number', 'is', null).orderBy('id').limit(BATCH).execute();
        if (rows.length === 0) break;
        const values = rows.map(({ id }) => {
          let number = readableNumber();
          while (given.has(number)) number = readableNumber();
          given.add(number);
          return sql`(${Number(id)}, ${number})`;
        });
        // One statement per batch: VALUES columns are column1, column2 on both databases.
        await sql`update shop_order set number = v.column2 from (values ${sql.join(values)}) as v where shop_order.id = cast(v.column1 as bigint)`.execute(db);
      }
      if (dialect === 'postgres') await db.schema.alterTable('shop_order').alterColumn('number', (c) => c.setNotNull()).execute();
      await db.schema.createIndex('shop_order_number_idx').on('shop_order').column('number').unique().execute();
    },
  };
}
