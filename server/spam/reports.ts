/**
 * What rspamd reports at the end of each message it scanned (deploy/templates/rspamd-lua.ts): mail
 * from outside counts per recipient domain and day (received, junked, rejected); mail a mailbox
 * submitted is counted for its rate, and a mailbox whose message was refused as spam is held.
 */
import { z } from 'zod';
import type { Services } from '../core/services.js';
import { nowMs } from '../core/time.js';
import { countSubmission, holdMailbox } from './holds.js';
import { defaultsOf } from './settings.js';
import { oneOf } from '../db/one-of.js';

export const reportInput = z.object({
  direction: z.enum(['in', 'out']),
  user: z.string().max(320).optional(),
  recipients: z.array(z.string().max(320)).max(1000),
  action: z.string().max(32),
  verdict: z.string().max(32),
  score: z.number().finite(),
});
export type ScanReport = z.output<typeof reportInput>;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export async function takeReport(services: Services, report: ScanReport) {
  const { db } = services;
  if (report.direction === 'out') {
    if (!report.user) return;
    const mailbox = await db.selectFrom('mailbox').select(['id', 'address', 'owner_id']).where('address', '=', report.user.toLowerCase()).executeTakeFirst();
    if (!mailbox) return;
    const box = { id: Number(mailbox.id), address: mailbox.address, owner_id: Number(mailbox.owner_id) };
    if (report.action === 'reject') {
      await holdMailbox(services, box, 'spam', `a message scored ${report.score.toFixed(1)} was refused as spam`);
      return;
    }
    await countSubmission(services, box, await defaultsOf(db));
    return;
  }
  const names = [...new Set(report.recipients.map((r) => r.toLowerCase().split('@')[1]).filter(Boolean))];
  if (names.length === 0) return;
  const domains = await db.selectFrom('domain').select('id').where('name', 'in', oneOf(db, names)).execute();
  const rejected = report.action === 'reject' ? 1 : 0;
  const junked = !rejected && report.verdict === 'junk' ? 1 : 0;
  const day = dayOf(nowMs());
  for (const { id } of domains) {
    await db
      .insertInto('spam_day')
      .values({ domain_id: Number(id), day, received: 1, junked, rejected })
      .onConflict((oc) =>
        oc.columns(['domain_id', 'day']).doUpdateSet((eb) => ({
          received: eb('spam_day.received', '+', 1),
          junked: eb('spam_day.junked', '+', junked),
          rejected: eb('spam_day.rejected', '+', rejected),
        })),
      )
      .execute();
  }
}
