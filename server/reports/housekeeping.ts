/** What the hourly housekeeping removes: reports older than a year and a month (their rows go with them), refusals older than 90 days. */
import type { Services } from '../core/services.js';
import { DAY_MS, nowMs } from '../core/time.js';

export async function forgetOldReports({ db }: Services) {
  const reportsBefore = new Date(nowMs() - 400 * DAY_MS).toISOString();
  // By kind: the (kind, received_at) index finds them; their rows go by the cascade (mail_report_id indexes).
  for (const kind of ['dmarc', 'tls'] as const) await db.deleteFrom('mail_report').where('kind', '=', kind).where('received_at', '<', reportsBefore).execute();
  await db.deleteFrom('report_refusal').where('received_at', '<', new Date(nowMs() - 90 * DAY_MS).toISOString()).execute();
}
