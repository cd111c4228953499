/**
 * The copy as a background job: one slice at a time (at most `sliceSeconds`, well inside the
 * queue's lease), each slice its own job, enqueued by the one before it. A slice cut short by a
 * crash runs again and resumes from what mail_copy_folder says. A copy ends done or failed, and
 * either way the old server's password is deleted with its end.
 */
import net from 'node:net';
import type { ImapFlow } from 'imapflow';
import { defineJob, type JobContext } from '../../core/jobs.js';
import type { Services } from '../../core/services.js';
import { daysAgo, now } from '../../core/time.js';
import type { Db } from '../../db/index.js';
import { copySlice } from './copy-slice.js';
import { closeQuietly, connect, CopyFailure, detailOf, unreachable } from './imap.js';
import { open } from './secret-box.js';
import { sourceAddress } from './source-address.js';

/** Longest a slice copies before it hands over to the next one (the queue's lease is 300 s; a stopping server waits for it). */
export const sliceSeconds = 30;

/** The sealed password's purpose: bound to its copy. */
export const secretPurpose = (copyId: number) => `mail_copy:${copyId}`;

/** The old account as the key of its folders' progress. */
export const sourceKey = (row: { source_host: string; source_port: number; source_user: string }) => `${row.source_host}:${row.source_port} ${row.source_user}`.toLowerCase();

/** Ends a copy that cannot go on: the reason kept, the password deleted. */
export async function failCopy(db: Db, copyId: number, error: string, detail: string | null) {
  await db.transaction().execute(async (trx) => {
    const at = now();
    await trx.updateTable('mail_copy').set({ state: 'failed', error, error_detail: detail, finished_at: at, updated_at: at }).where('id', '=', copyId).where('state', 'in', ['queued', 'running']).execute();
    await trx.deleteFrom('mail_copy_secret').where('copy_id', '=', copyId).execute();
  });
}

async function finishCopy(db: Db, copyId: number) {
  await db.transaction().execute(async (trx) => {
    const at = now();
    await trx.updateTable('mail_copy').set({ state: 'done', error: null, error_detail: null, finished_at: at, updated_at: at }).where('id', '=', copyId).where('state', 'in', ['queued', 'running']).execute();
    await trx.deleteFrom('mail_copy_secret').where('copy_id', '=', copyId).execute();
  });
}

async function runSlice(services: Services, copyId: number, ctx: JobContext) {
  const { db, config } = services;
  const copy = await db.selectFrom('mail_copy').selectAll().where('id', '=', copyId).executeTakeFirst();
  if (!copy || (copy.state !== 'queued' && copy.state !== 'running')) return;
  if (!config.mailCopy || !config.secretKey) return failCopy(db, copyId, 'error.mail_copy_not_set_up', null);
  const sealed = await db.selectFrom('mail_copy_secret').select('secret').where('copy_id', '=', copyId).executeTakeFirst();
  const password = sealed && open(config.secretKey, sealed.secret, secretPurpose(copyId));
  if (password === undefined) return failCopy(db, copyId, 'error.mail_copy_password_gone', null);

  let source: ImapFlow | undefined;
  let store: ImapFlow | undefined;
  // What a failure to reach the old server was: for the operators' log, never for the copy's record.
  const logUnreached = (detail: string) => services.logger.warn({ mail_copy: copyId, host: copy.source_host, port: copy.source_port, detail }, 'mail copy: the old server was not reached');
  try {
    // Checked again now (the name may point elsewhere since the copy was started), and connected to the address checked.
    const checked = await sourceAddress(copy.source_host, config.mailCopyAllowNetworks);
    if (!checked.ok) {
      logUnreached(checked.why === 'refused' ? `${checked.address} is not allowed (MAIL_COPY_ALLOW_NETWORKS)` : checked.detail);
      throw unreachable();
    }
    const name = copy.source_host.replace(/^\[|\]$/g, '');
    const endpoint = { host: checked.address, servername: net.isIP(name) ? undefined : name, port: copy.source_port };
    source = await connect({ ...endpoint, secure: copy.source_tls === 'tls', verify: true, user: copy.source_user, pass: password }, 'source', logUnreached);
    const dest = config.mailCopy;
    store = await connect({ host: dest.host, port: dest.port, secure: dest.secure, verify: dest.verify, user: `${copy.address}*${dest.masterUser}`, pass: dest.masterPassword }, 'store');
    const outcome = await copySlice(db, { copyId, mailboxId: copy.mailbox_id, source: sourceKey(copy) }, source, store, Date.now() + sliceSeconds * 1000, ctx.stopping);
    if (outcome === 'finished') return await finishCopy(db, copyId);
    await db.transaction().execute(async (trx) => {
      const next = copy.round + 1;
      await trx.updateTable('mail_copy').set({ round: next, updated_at: now() }).where('id', '=', copyId).execute();
      await services.jobs.enqueue(trx, mailCopyJob, { copyId, owner: Number(copy.owner_id) }, { uniqueKey: `${copyId}:${next}` });
    });
  } catch (error) {
    if (error instanceof CopyFailure) return await failCopy(db, copyId, error.key, error.detail);
    // Anything else (a dropped connection, our server restarting) is retried; after the last try the copy ends.
    if (ctx.finalAttempt) return await failCopy(db, copyId, 'error.mail_copy_interrupted', detailOf(error));
    throw new Error(`mail copy ${copyId}: ${detailOf(error)}`);
  } finally {
    await closeQuietly(source);
    await closeQuietly(store);
  }
}

export const mailCopyJob = defineJob<{ copyId: number; /** The customer: their fair share of the lane. */ owner?: number }>({
  name: 'mail_copy.run',
  retryLimit: 5,
  retryDelaySeconds: 15,
  // Minutes of waiting on other servers: never in front of the mail people wait for.
  lane: 'long',
  ownerOf: ({ owner }) => owner,
  handler: ({ copyId }, ctx) => runSlice(ctx.services, copyId, ctx),
});

/**
 * Housekeeping: a copy nothing has moved for a day (its job discarded by an operator, or lost)
 * ends as interrupted, and its password goes with it.
 */
export async function endAbandonedCopies({ db }: Services) {
  const stale = await db.selectFrom('mail_copy').select('id').where('state', 'in', ['queued', 'running']).where('updated_at', '<', daysAgo(1)).limit(500).execute();
  for (const { id } of stale) await failCopy(db, Number(id), 'error.mail_copy_interrupted', null);
}
