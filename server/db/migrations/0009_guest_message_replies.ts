/**
 * Guest messages get answered: whether a message is still open (handled, with when and by
 * whom), when it was last replied to, and every reply an operator sent (guest_message_reply).
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

export function guestMessageReplies(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('guest_message').addColumn('handled', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('guest_message').addColumn('handled_at', 'text').execute();
      await db.schema.alterTable('guest_message').addColumn('handled_by', 'integer').execute();
      await db.schema.alterTable('guest_message').addColumn('replied_at', 'text').execute();
      // "Still open, newest first" is the operators' everyday list.
      await indexes(db, 'guest_message', [['handled', 'created_at'], 'replied_at']);

      await withId(db.schema.createTable('guest_message_reply'), dialect)
        .addColumn('guest_message_id', 'integer', (c) => c.notNull().references('guest_message.id').onDelete('cascade'))
        .addColumn('operator_id', 'integer')
        .addColumn('operator_name', 'text', (c) => c.notNull())
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'guest_message_reply', [['guest_message_id', 'id']]);
    },
  };
}
