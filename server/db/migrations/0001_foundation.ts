/** Accounts, sessions, codes, outgoing mail, guest messages and the audit log. */
import type { Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

export function foundation(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('admin'), dialect)
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('last_login_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'admin', ['role', 'status', 'last_login_at', 'created_at']);

      await withId(db.schema.createTable('user'), dialect)
        .addColumn('owner_id', 'bigint', (c) => c.references('user.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('username', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('is_verified', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
        .addColumn('points', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('storage_max', 'bigint', (c) => c.notNull())
        .addColumn('locale', 'text', (c) => c.notNull().defaultTo('zh'))
        .addColumn('last_login_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'user', [
        ['owner_id', 'id'],
        'username',
        'is_verified',
        'status',
        'points',
        'storage_max',
        'last_login_at',
        'created_at',
      ]);

      await withId(db.schema.createTable('session'), dialect)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('account_id', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await indexes(db, 'session', [['actor', 'account_id']]);

      await withId(db.schema.createTable('verify_code'), dialect)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'verify_code', [['user_id', 'purpose']]);

      await withId(db.schema.createTable('email_template'), dialect)
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('email_template_key_locale_unique', ['key', 'locale'])
        .execute();
      await indexes(db, 'email_template', ['locale', 'updated_at']);

      await withId(db.schema.createTable('email_send_log'), dialect)
        .addColumn('template_key', 'text', (c) => c.notNull())
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('transport', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('message_id', 'text')
        .addColumn('user_id', 'bigint')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'email_send_log', ['template_key', 'recipient', 'status', 'transport', 'user_id', 'created_at']);

      await withId(db.schema.createTable('guest_message'), dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'guest_message', ['ip', 'created_at']);

      await withId(db.schema.createTable('log'), dialect)
        .addColumn('user_id', 'bigint')
        .addColumn('actor_type', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'bigint')
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'bigint')
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'log', [['user_id', 'id'], 'actor_type', 'actor_id', 'action', ['target_type', 'target_id'], 'target_id', 'ip', 'created_at']);
    },
  };
}
