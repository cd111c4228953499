/**
 * Import runs: started with the items a dry run found (kept in the run, so that the job needs
 * neither the source nor its password again), worked by the `imports.run` job one batch per
 * transaction with its progress, and resumed after a crash: on SQLite the queue takes the job
 * again at start; on PostgreSQL, `imports.resume` re-enqueues a running import whose lease
 * ran out (its worker died) within a minute.
 */
import type { Selectable } from 'kysely';
import { actorForLog, type Actor } from '../core/actor.js';
import { audit } from '../core/audit.js';
import type { RequestOrigin } from '../core/audit.js';
import type { CallContext } from '../core/calls.js';
import { notFound } from '../core/errors.js';
import { defineJob, defineSchedule, type JobContext } from '../core/jobs.js';
import type { Services } from '../core/services.js';
import { inSeconds, now } from '../core/time.js';
import type { ImportRunRow } from '../db/schema.js';
import { hashMailboxPassword } from '../mail/mailbox-password.js';
import { applyBatch, keysFor } from './apply.js';
import { emptyCounts, type ImportItem, type ImportReport, type ItemKind } from './items.js';

const LEASE_SECONDS = 30;

export interface NewRun {
  kind: ImportRunRow['kind'];
  area: ImportRunRow['area'];
  owner_id: number | null;
  source: string;
  items: ImportItem[];
  report: ImportReport;
}

const whoOf = (actor: RequestOrigin['actor']) => {
  const { actor_type, actor_name } = actorForLog(actor);
  return `${actor_type}:${actor_name}`;
};

/** Records the run and queues its job, in one transaction: a run exists with its job or not at all. */
export async function startRun(ctx: RequestOrigin & { services: Services }, run: NewRun) {
  const at = now();
  return ctx.services.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('import_run')
      .values({
        kind: run.kind,
        area: run.area,
        owner_id: run.owner_id,
        source: run.source,
        started_by: whoOf(ctx.actor),
        actor: JSON.stringify({ actor: ctx.actor, ip: ctx.ip, userAgent: ctx.userAgent }),
        state: 'queued',
        total: run.items.length,
        done: 0,
        items: JSON.stringify(run.items),
        report: JSON.stringify(run.report),
        created: JSON.stringify(emptyCounts()),
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await ctx.services.jobs.enqueue(trx, runImport, { run_id: id, ...(run.owner_id ? { owner: run.owner_id } : {}) }, { uniqueKey: `import-${id}` });
    await audit(trx, ctx, { action: 'import_start', targetType: 'import', targetId: id, userId: run.owner_id, after: { kind: run.kind, source: run.source, items: run.items.length, create: run.report.create } });
    return viewOf((await trx.selectFrom('import_run').selectAll().where('id', '=', id).executeTakeFirstOrThrow()));
  });
}

/** A run as callers see it: never its items (hashes), only counts. */
export function viewOf(row: Selectable<ImportRunRow>) {
  return {
    id: Number(row.id),
    kind: row.kind,
    area: row.area,
    owner_id: row.owner_id === null ? null : Number(row.owner_id),
    source: row.source,
    started_by: row.started_by,
    state: row.state,
    total: Number(row.total),
    done: Number(row.done),
    report: JSON.parse(row.report) as ImportReport,
    created: JSON.parse(row.created) as Record<ItemKind, number>,
    error: row.error,
    created_at: row.created_at,
    updated_at: row.updated_at,
    finished_at: row.finished_at,
  };
}

/** The runs a caller may see: a customer's own (a team member's: those they started), or (operators) every one; newest first. */
export async function listRuns(ctx: CallContext, ownerId: number | null) {
  let query = ctx.services.db.selectFrom('import_run').selectAll().orderBy('id', 'desc').limit(50);
  if (ownerId !== null) query = query.where('owner_id', '=', ownerId);
  // A team member's reports name addresses of the domains they manage: only their own runs.
  if (ctx.actor.kind === 'customer' && !ctx.actor.isOwner) query = query.where('started_by', '=', whoOf(ctx.actor));
  const rows = await query.execute();
  return { list: rows.map(viewOf), total: rows.length };
}

export async function findRun(ctx: CallContext, id: number, ownerId: number | null) {
  let query = ctx.services.db.selectFrom('import_run').selectAll().where('id', '=', id);
  if (ownerId !== null) query = query.where('owner_id', '=', ownerId);
  if (ctx.actor.kind === 'customer' && !ctx.actor.isOwner) query = query.where('started_by', '=', whoOf(ctx.actor));
  const row = await query.executeTakeFirst();
  if (!row) throw notFound();
  return viewOf(row);
}

async function hashClearPasswords(items: ImportItem[]) {
  const clear = items.filter((item): item is Extract<ImportItem, { kind: 'mailbox' }> => item.kind === 'mailbox' && !!item.password);
  for (let i = 0; i < clear.length; i += 64) {
    await Promise.all(
      clear.slice(i, i + 64).map(async (item) => {
        item.password_hash = await hashMailboxPassword(item.password!);
        delete item.password;
      }),
    );
  }
}

export async function findRunById(services: Services, id: number) {
  return viewOf(await services.db.selectFrom('import_run').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

/** Takes the run for this worker, unless another holds it. */
async function claim(services: Services, id: number): Promise<boolean> {
  const at = now();
  const result = await services.db
    .updateTable('import_run')
    .set({ state: 'running', lease_until: inSeconds(LEASE_SECONDS), updated_at: at })
    .where('id', '=', id)
    .where('state', 'in', ['queued', 'running'])
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Works the run to its end in this process (the job's work; the CLI's too), unless another worker holds it. */
export async function work(services: Services, id: number, onProgress?: (done: number, total: number) => void) {
  if (!(await claim(services, id))) return;
  const row = await services.db.selectFrom('import_run').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const items = JSON.parse(row.items) as ImportItem[];
  const origin = JSON.parse(row.actor) as { actor: Actor; ip: string; userAgent: string };
  if (items.some((item) => item.kind === 'mailbox' && item.password)) {
    // Clear passwords (a CSV file's) become argon2id before anything is made, and leave the run.
    await hashClearPasswords(items);
    await services.db.updateTable('import_run').set({ items: JSON.stringify(items) }).where('id', '=', id).execute();
  }
  const size = services.config.importBatchSize;
  let done = Number(row.done);
  const created = JSON.parse(row.created) as Record<ItemKind, number>;
  while (done < items.length) {
    const batch = items.slice(done, done + size);
    const keys = await keysFor(batch);
    await services.db.transaction().execute(async (trx) => {
      const made = await applyBatch(trx, batch, keys, row.started_by);
      for (const [kind, n] of Object.entries(made)) created[kind as ItemKind] += n;
      // Progress with the batch it counts; a worker that lost the run changes nothing.
      const moved = await trx
        .updateTable('import_run')
        .set({ done: done + batch.length, created: JSON.stringify(created), lease_until: inSeconds(LEASE_SECONDS), updated_at: now() })
        .where('id', '=', id)
        .where('done', '=', done)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw new Error('import run taken by another worker');
    });
    done += batch.length;
    onProgress?.(done, items.length);
    // SQLite answers without waiting: without this, a whole import would run before any request.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await services.db.transaction().execute(async (trx) => {
    const at = now();
    await trx.updateTable('import_run').set({ state: 'done', lease_until: null, updated_at: at, finished_at: at }).where('id', '=', id).execute();
    await audit(trx, origin, { action: 'import', targetType: 'import', targetId: id, userId: row.owner_id, after: { kind: row.kind, source: row.source, created } });
  });
}

export const runImport = defineJob<{ run_id: number; /** Whose run (their fair share of the lane); none for an operator's. */ owner?: number }>({
  name: 'imports.run',
  retryLimit: 3,
  retryDelaySeconds: 5,
  // Thousands of mailboxes, batch after batch: never in front of the mail people wait for.
  lane: 'long',
  ownerOf: ({ owner }) => owner,
  async handler({ run_id }, ctx: JobContext) {
    try {
      await work(ctx.services, run_id);
    } catch (error) {
      // Another try may take it (its lease ends now); the last one says why it stopped.
      const at = now();
      await ctx.services.db
        .updateTable('import_run')
        .set({ lease_until: null, updated_at: at, ...(ctx.finalAttempt ? { state: 'failed', error: String(error instanceof Error ? error.message : error).slice(0, 500), finished_at: at } : {}) })
        .where('id', '=', run_id)
        .where('state', '=', 'running')
        .execute();
      throw error;
    }
  },
});

/** A running import whose worker died (its lease ran out): queued again. */
export const resumeImports = defineSchedule({
  name: 'imports.resume',
  cron: '* * * * *',
  async handler({ services }) {
    const at = now();
    const stuck = await services.db.selectFrom('import_run').select(['id', 'owner_id']).where('state', '=', 'running').where('lease_until', '<', at).execute();
    for (const { id, owner_id } of stuck) {
      await services.db.transaction().execute(async (trx) => {
        await services.jobs.enqueue(trx, runImport, { run_id: Number(id), ...(owner_id ? { owner: Number(owner_id) } : {}) }, { uniqueKey: `import-${id}-${at}` });
      });
    }
  },
});
