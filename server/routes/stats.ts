/** /api/manage/index/stat: the operator dashboard's figures. */
import { sql } from 'kysely';
import { z } from 'zod';
import { defineCall } from '../core/calls.js';
import { staff } from '../../resources/define.js';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

export const statCalls = [
  defineCall({
    method: 'POST',
    path: '/api/manage/index/stat',
    auth: 'operator',
    tag: 'manage/index',
    roles: staff,
    summary: 'Overall figures: customers, guest messages and outgoing mail, in total and over the last 7 days.',
    input: z.object({}),
    async handler(_input, ctx) {
      const { db } = ctx.services;
      const weekAgo = daysAgo(7);
      const count = sql<number>`count(*)`;
      const [customers, newCustomers, verified, guestMessages, newGuestMessages, mail] = await Promise.all([
        db.selectFrom('user').select(count.as('n')).where('owner_id', 'is', null).executeTakeFirstOrThrow(),
        db.selectFrom('user').select(count.as('n')).where('owner_id', 'is', null).where('created_at', '>=', weekAgo).executeTakeFirstOrThrow(),
        db.selectFrom('user').select(count.as('n')).where('owner_id', 'is', null).where('is_verified', '=', 1).executeTakeFirstOrThrow(),
        db.selectFrom('guest_message').select(count.as('n')).executeTakeFirstOrThrow(),
        db.selectFrom('guest_message').select(count.as('n')).where('created_at', '>=', weekAgo).executeTakeFirstOrThrow(),
        db.selectFrom('email_send_log').select(['status', count.as('n')]).where('created_at', '>=', weekAgo).groupBy('status').execute(),
      ]);
      const sent = (status: string) => Number(mail.find((m) => m.status === status)?.n ?? 0);
      return {
        customers: { total: Number(customers.n), verified: Number(verified.n), new_7d: Number(newCustomers.n) },
        guest_messages: { total: Number(guestMessages.n), new_7d: Number(newGuestMessages.n) },
        mail_7d: { sent: sent('sent'), failed: sent('failed') },
      };
    },
  }),
];
