/**
 * Hourly housekeeping: what has ended is removed, so that tables hold what is still of use.
 * Each step is one indexed DELETE and may run twice harmlessly.
 */
import { nowMs } from '../core/time.js';
import { defineSchedule } from './define.js';

const daysAgo = (days: number) => new Date(nowMs() - days * 86_400_000).toISOString();

/** Done jobs of the embedded queue are kept this long (their unique keys hold as long); pg-boss archives its own. */
export const keepDoneJobsDays = 7;
/** Failed jobs stay for operators to retry or discard this long. */
export const keepFailedJobsDays = 30;

export const housekeeping = defineSchedule({
  name: 'housekeeping',
  // Hourly; HOUSEKEEPING_CRON changes it (the two-instance test runs it every minute).
  cron: process.env.HOUSEKEEPING_CRON || '17 * * * *',
  async handler({ services }) {
    const { db, dialect, config, limiter } = services;
    const at = new Date(nowMs()).toISOString();
    // Sessions past their end (absolute or idle); revoked ones a day after, for the audit trail's sake.
    await db.deleteFrom('session').where('expires_at', '<=', at).execute();
    await db.deleteFrom('session').where('last_seen_at', '<=', new Date(nowMs() - config.sessionIdleMinutes * 60_000).toISOString()).execute();
    await db.deleteFrom('session').where('revoked_at', '<=', daysAgo(1)).execute();
    // Codes past their 10 minutes (used ones too): a day's grace so that support can see one.
    await db.deleteFrom('verify_code').where('expires_at', '<=', daysAgo(1)).execute();
    // Team invitations never accepted, a month after their link ended (accepted ones stay: how a member came).
    await db.deleteFrom('team_invitation').where('expires_at', '<=', daysAgo(30)).where('accepted_at', 'is', null).execute();
    // Finished send-log entries older than MAIL_LOG_RETENTION_DAYS; pending ones wait for their job.
    await db.deleteFrom('email_send_log').where('created_at', '<', daysAgo(config.mailLogRetentionDays)).where('status', '!=', 'pending').execute();
    if (dialect === 'sqlite') {
      await db.deleteFrom('job').where('state', '=', 'done').where('updated_at', '<', daysAgo(keepDoneJobsDays)).execute();
      await db.deleteFrom('job').where('state', '=', 'failed').where('updated_at', '<', daysAgo(keepFailedJobsDays)).execute();
    }
    await limiter.sweep();
  },
});
