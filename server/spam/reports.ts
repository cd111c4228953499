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
  /** Recipients the message was taken off (their block list, or their reject score) while the others received it. */
  refused: z.array(z.string().max(320)).max(1000).optional(),
  action: z.string().max(32),
  verdict: z.string().max(32),
  score: z.number().finite(),
  /** When rspamd scored it (Unix seconds): a report it sends again after the panel was down counts on that day. */
  at: z.number().int().optional(),
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
  const domainOf = (address: string) => address.toLowerCase().split('@')[1];
  const names = [...new Set(report.recipients.map(domainOf).filter(Boolean))];
  if (names.length === 0) return;
  const domains = await db.selectFrom('domain').select(['id', 'name']).where('name', 'in', oneOf(db, names)).execute();
  // A domain whose every recipient was taken off the message counts it as refused, as a refused message.
  const refused = new Set((report.refused ?? []).map((r) => r.toLowerCase()));
  const allRefused = (name: string) => report.recipients.filter((r) => domainOf(r) === name).every((r) => refused.has(r.toLowerCase()));
  // The day it was scored, unless rspamd's clock says a time to come or older than the figures go.
  const now = nowMs();
  const at = report.at === undefined ? now : report.at * 1000;
  const day = dayOf(at > now + 300_000 || at < now - 30 * 86_400_000 ? now : at);
  for (const { id, name } of domains) {
    const rejected = report.action === 'reject' || allRefused(name) ? 1 : 0;
    const junked = !rejected && report.verdict === 'junk' ? 1 : 0;
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
