/** /api/manage/index/stat: the operator dashboard's figures. */
import { sql } from 'kysely';
import { z } from 'zod';
import { fieldSchema, staff } from '../../resources/define.js';
import { defineCall } from '../core/calls.js';
import { AppError } from '../core/errors.js';
import { daysAgo } from '../core/time.js';
import { ticketFigures } from '../support/stats.js';
import { refreshSummary } from './business.js';
import { businessReport } from './report.js';

export const statCalls = [
  defineCall({
    method: 'POST',
    path: '/api/manage/index/stat',
    reads: true,
    auth: 'operator',
    tag: 'manage/index',
    roles: staff,
    summary: 'Overall figures: customers, guest messages and outgoing mail, in total and over the last 7 days; `business` (period 30d by day or 12m by month, UTC days): revenue (card payments minus card refunds, by the day each happened), orders reaching each status, new and paying customers, top products, points granted/bought/spent/refunded, capacity sold/granted/handed out/used (hourly snapshot, taken at once when today has none yet), renewals due in 30 days, customers over capacity, mail sent and failed — read from the daily summary the stats.daily schedule keeps, today from the base tables; `refresh`: true brings the summary up to date first, as the schedule does (days since the last one made final, and a new capacity snapshot); `tickets` (open, active, unassigned, waiting longest, median first response this week).',
    // The period of the `business` figures: 30 days by day, or 12 months by month.
    input: z.object({ period: z.enum(['30d', '12m']).default('30d'), refresh: fieldSchema({ kind: 'boolean' }).default(0) }),
    async handler({ period, refresh }, ctx) {
      const { db } = ctx.services;
      if (refresh) {
        // Bringing the summary up to date writes it: a read-only key may read the figures, not refresh them.
        if (ctx.actor.kind === 'operator' && ctx.actor.apiKey?.access === 'read') throw new AppError('forbidden', 'error.api_key_read_only');
        await refreshSummary(db);
      }
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
      // Jobs: totals over every job name.
      const jobLines = await ctx.services.jobs.counts();
      const jobTotal = (key: 'queued' | 'active' | 'failed' | 'done_1d') => jobLines.reduce((sum, line) => sum + line[key], 0);
      const sent = (status: string) => Number(mail.find((m) => m.status === status)?.n ?? 0);
      return {
        customers: { total: Number(customers.n), verified: Number(verified.n), new_7d: Number(newCustomers.n) },
        guest_messages: { total: Number(guestMessages.n), new_7d: Number(newGuestMessages.n) },
        mail_7d: { pending: sent('pending'), sent: sent('sent'), failed: sent('failed') },
        jobs: { queued: jobTotal('queued'), active: jobTotal('active'), failed: jobTotal('failed'), done_1d: jobTotal('done_1d') },
        business: await businessReport(ctx.services, period),
        tickets: await ticketFigures(db),
      };
    },
  }),
];
