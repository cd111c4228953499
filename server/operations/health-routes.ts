/**
 * For load balancers and service managers: GET /health (the process answers) and GET /ready
 * (the database answers and has every migration this code needs: 503 otherwise, so no traffic is
 * sent to an instance that cannot serve it).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Services } from '../core/services.js';
import { migrationStatus } from '../db/migrate.js';

/** A check that has not answered within this long counts as failed. */
const READY_TIMEOUT_MS = 2000;

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

/** Whether this instance can serve: the database answers and has every migration of this code, and none newer. */
export async function readiness(services: Pick<Services, 'db' | 'dialect'>): Promise<{ ready: boolean; database: string; migrations: string }> {
  try {
    await within(sql`select 1`.execute(services.db), READY_TIMEOUT_MS);
  } catch (error) {
    return { ready: false, database: `unreachable: ${(error as Error).message}`, migrations: 'unknown' };
  }
  const status = await within(migrationStatus(services), READY_TIMEOUT_MS).catch(() => undefined);
  if (!status) return { ready: false, database: 'ok', migrations: 'unknown' };
  // A newer release migrated the database while this one runs (an upgrade, one instance at a time):
  // its migrations only add (docs/operations.md#upgrades), so this instance keeps serving until it is replaced.
  if (status.unknown.length) return { ready: true, database: 'ok', migrations: `newer than this code: ${status.unknown.join(', ')}` };
  if (status.pending.length) return { ready: false, database: 'ok', migrations: `pending: ${status.pending.join(', ')}` };
  return { ready: true, database: 'ok', migrations: 'current' };
}

export function registerHealth(app: FastifyInstance, services: Services) {
  app.get('/health', async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));
  app.get('/ready', async (_request, reply) => {
    const answer = await readiness(services);
    return reply
      .status(answer.ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: answer.ready ? 'ready' : 'not_ready', database: answer.database, migrations: answer.migrations });
  });
}
