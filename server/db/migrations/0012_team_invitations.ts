/**
 * Team-member invitations: a customer no longer makes a team login with a password
 * of their choosing; they invite an address, and the invitee sets their own password through
 * the e-mailed link. Only a hash of the link's token is kept. Accepted invitations stay, with
 * when, as the record of how the member came.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../index.js';
import { indexes, withId } from './helpers.js';

export function teamInvitations(dialect: Dialect) {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('team_invitation'), dialect)
        .addColumn('owner_id', 'bigint', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('username', 'text', (c) => c.notNull().defaultTo(''))
        // The domains the member will manage (a JSON list of ids), applied when accepted.
        .addColumn('domain_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('accepted_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // The customer's pending invitations (the list), one address among them (inviting it
      // again renews it), and the expired ones housekeeping removes.
      await indexes(db, 'team_invitation', [['owner_id', 'accepted_at'], ['owner_id', 'email'], 'expires_at']);
    },
  };
}
