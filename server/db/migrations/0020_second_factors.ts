/**
 * Second factors for every kind of person who signs in to a panel area (customers and their team,
 * operators, mailbox owners), each named by `holder_kind` ('customer', 'operator', 'mailbox') and
 * `holder_id` (user.id, admin.id, mailbox.id):
 * - totp: one authenticator app each (RFC 6238); confirmed by a first code; `last_step` is the
 *   newest 30-second step a code was accepted for, so a code is never accepted twice;
 * - recovery_code: ten one-time codes, stored as their SHA-256 only;
 * - passkey: WebAuthn credentials, several per person, named;
 * - second_factor_challenge: short-lived, single-purpose tokens (stored hashed): the pending
 *   sign-in between the password step and the second step, and WebAuthn challenges;
 * - second_factor_policy: who must have a second factor ('operators', or 'team:<customer id>').
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

export function secondFactors(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('totp'), dialect)
        .addColumn('holder_kind', 'text', (c) => c.notNull())
        .addColumn('holder_id', 'bigint', (c) => c.notNull())
        // Base32; needed in clear to compute codes, never answered after enrolment.
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('confirmed_at', 'text')
        .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('totp_holder_key', ['holder_kind', 'holder_id'])
        .execute();

      await withId(db.schema.createTable('recovery_code'), dialect)
        .addColumn('holder_kind', 'text', (c) => c.notNull())
        .addColumn('holder_id', 'bigint', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'recovery_code', [['holder_kind', 'holder_id']]);

      await withId(db.schema.createTable('passkey'), dialect)
        .addColumn('holder_kind', 'text', (c) => c.notNull())
        .addColumn('holder_id', 'bigint', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        // base64url, as WebAuthn names credentials.
        .addColumn('credential_id', 'text', (c) => c.notNull().unique())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .execute();
      await indexes(db, 'passkey', [['holder_kind', 'holder_id']]);

      await withId(db.schema.createTable('second_factor_challenge'), dialect)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('holder_kind', 'text', (c) => c.notNull())
        // Null for a passkey sign-in without a password: the passkey names the person.
        .addColumn('holder_id', 'bigint')
        // WebAuthn's challenge; the sign-in method of the password step for a pending sign-in.
        .addColumn('challenge', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await indexes(db, 'second_factor_challenge', ['expires_at']);

      await db.schema
        .createTable('second_factor_policy')
        .addColumn('scope', 'text', (c) => c.primaryKey())
        .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
