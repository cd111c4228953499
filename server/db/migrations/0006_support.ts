/**
 * Support: tickets, their messages (internal notes included), attachments on messages, the
 * words of ticket subjects (an index the queue's search reads instead of scanning), canned
 * replies, and an e-mail address and language for operators (ticket notifications).
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

export function support(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('admin').addColumn('email', 'text').execute();
      await db.schema.alterTable('admin').addColumn('locale', 'text', (c) => c.notNull().defaultTo('zh')).execute();

      await withId(db.schema.createTable('ticket'), dialect)
        .addColumn('number', 'text', (c) => c.notNull().unique())
        .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        // The account that opened it (the customer, or one of its team members).
        .addColumn('author_id', 'bigint', (c) => c.references('user.id').onDelete('set null'))
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('priority', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('assignee_id', 'bigint', (c) => c.references('admin.id').onDelete('set null'))
        .addColumn('link_type', 'text')
        .addColumn('link_id', 'bigint')
        .addColumn('last_activity_at', 'text', (c) => c.notNull())
        .addColumn('last_reply_by', 'text', (c) => c.notNull())
        // Since when the customer waits for an answer; null when it is the customer's turn or closed.
        .addColumn('waiting_since', 'text')
        .addColumn('first_response_at', 'text')
        .addColumn('first_response_seconds', 'integer')
        .addColumn('closed_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'ticket', [
        ['owner_id', 'id'],
        ['owner_id', 'last_activity_at'],
        ['owner_id', 'status'],
        ['author_id', 'id'],
        ['status', 'last_activity_at'],
        ['assignee_id', 'last_activity_at'],
        'last_activity_at',
        'waiting_since',
        // Filters of the queue, in its default order: a page is the first rows of one index.
        ['priority', 'last_activity_at'],
        ['category', 'last_activity_at'],
        'created_at',
        'first_response_at',
      ]);

      await db.schema
        .createTable('ticket_word')
        // Byte order on PostgreSQL too, so that a prefix is a range of the index (words.ts).
        .addColumn('word', dialect === 'postgres' ? sql`text collate "C"` : 'text', (c) => c.notNull())
        .addColumn('ticket_id', 'bigint', (c) => c.notNull().references('ticket.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('ticket_word_pk', ['word', 'ticket_id'])
        .execute();
      await indexes(db, 'ticket_word', ['ticket_id']);

      await withId(db.schema.createTable('ticket_message'), dialect)
        .addColumn('ticket_id', 'bigint', (c) => c.notNull().references('ticket.id').onDelete('cascade'))
        .addColumn('owner_id', 'bigint', (c) => c.notNull())
        .addColumn('author_type', 'text', (c) => c.notNull())
        .addColumn('author_id', 'bigint')
        .addColumn('author_name', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('internal', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'ticket_message', [['ticket_id', 'id']]);

      await withId(db.schema.createTable('ticket_attachment'), dialect)
        .addColumn('ticket_id', 'bigint', (c) => c.notNull().references('ticket.id').onDelete('cascade'))
        .addColumn('message_id', 'bigint', (c) => c.notNull().references('ticket_message.id').onDelete('cascade'))
        .addColumn('owner_id', 'bigint', (c) => c.notNull())
        .addColumn('internal', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('stored_name', 'text', (c) => c.notNull().unique())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'ticket_attachment', [['ticket_id', 'id'], 'message_id']);

      await withId(db.schema.createTable('canned_reply'), dialect)
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'canned_reply', ['title', 'updated_at']);
    },
  };
}
