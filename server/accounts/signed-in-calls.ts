/**
 * Where you are signed in: in each area (customers and their team, operators, mailbox owners) a
 * person lists their own live sessions (device and browser, address, last seen) and ends one or
 * all the others. Only with a session: an API key neither sees nor ends sessions.
 */
import { z } from 'zod';
import { idSchema, type Area } from '../../resources/define.js';
import type { Actor } from '../core/actor.js';
import { audit } from '../core/audit.js';
import { defineCall, type CallContext, type SignedInAuth } from '../core/calls.js';
import { notFound } from '../core/errors.js';
import { now } from '../core/time.js';
import { deviceName, deviceOf } from './device.js';
import { liveSessionsOf, revokeSession, type SessionActor } from './sessions.js';

/** Whose sessions the caller's are, and how the log names that account. */
function personOf(actor: Actor): { actor: SessionActor; accountId: number; targetType: string; name: string; customerId: number | null } {
  switch (actor.kind) {
    case 'customer':
      return { actor: 'customer', accountId: actor.accountId, targetType: 'user', name: actor.email, customerId: actor.customerId };
    case 'operator':
      return { actor: 'operator', accountId: actor.id, targetType: 'operator', name: actor.username, customerId: null };
    case 'mailbox':
      return { actor: 'mailbox', accountId: actor.mailboxId, targetType: 'email', name: actor.address, customerId: actor.customerId };
    default:
      throw notFound();
  }
}

const sessionId = (actor: Actor) => (actor.kind === 'anonymous' ? 0 : actor.sessionId);

async function list(ctx: CallContext) {
  const { db, config } = ctx.services;
  const person = personOf(ctx.actor);
  const rows = await liveSessionsOf(db, config, person.actor, person.accountId);
  return {
    list: rows.map((row) => ({ ...row, id: Number(row.id), ...deviceOf(row.user_agent), device: deviceName(row.user_agent), current: Number(row.id) === sessionId(ctx.actor) })),
    total: rows.length,
  };
}

async function end(ctx: CallContext, id: number) {
  const { db, config } = ctx.services;
  const person = personOf(ctx.actor);
  const session = (await liveSessionsOf(db, config, person.actor, person.accountId)).find((row) => Number(row.id) === id);
  // Another person's session, or one already over, is not the caller's to end.
  if (!session) throw notFound();
  await db.transaction().execute(async (trx) => {
    await revokeSession(trx, id);
    await audit(trx, ctx, {
      action: 'end_session',
      targetType: 'session',
      targetId: id,
      userId: person.customerId,
      // The log names the session by its device ("Firefox (Windows)").
      before: { name: deviceName(session.user_agent), ip: session.ip, last_seen_at: session.last_seen_at },
    });
  });
  return { id };
}

async function endOthers(ctx: CallContext) {
  const { db } = ctx.services;
  const person = personOf(ctx.actor);
  return db.transaction().execute(async (trx) => {
    const ended = await trx
      .updateTable('session')
      .set({ revoked_at: now() })
      .where('actor', '=', person.actor)
      .where('account_id', '=', person.accountId)
      .where('revoked_at', 'is', null)
      .where('id', '!=', sessionId(ctx.actor))
      .executeTakeFirst();
    const count = Number(ended.numUpdatedRows);
    await audit(trx, ctx, { action: 'end_other_sessions', targetType: person.targetType, targetId: person.accountId, userId: person.customerId, after: { name: person.name, count } });
    return { count };
  });
}

const authOf = { admin: 'customer', manage: 'operator', mail: 'mailbox' } as const satisfies Record<Area, SignedInAuth>;

/** The three calls of an area's sessions: list, end, end_others. */
export function signedInCalls(area: Area) {
  const base = { auth: authOf[area], tag: `${area}/session`, keys: false as const, needsVerified: false };
  return [
    defineCall({
      ...base,
      method: 'GET',
      path: `/api/${area}/session/list`,
      summary:
        "The caller's own live sessions, most recently used first: {list: [{id, device, browser, os, ip, user_agent, created_at, last_seen_at, current}], total}; `current` marks the session making this call.",
      input: z.object({}),
      handler: (_input, ctx) => list(ctx),
    }),
    defineCall({
      ...base,
      method: 'POST',
      path: `/api/${area}/session/end`,
      summary: "End one of the caller's own sessions by id (the device using it is signed out at its next call); another person's session is not found.",
      input: z.object({ id: idSchema }),
      handler: ({ id }, ctx) => end(ctx, id),
    }),
    defineCall({
      ...base,
      method: 'POST',
      path: `/api/${area}/session/end_others`,
      summary: "End every session of the caller's but the one making this call; answers {count}.",
      input: z.object({}),
      handler: (_input, ctx) => endOthers(ctx),
    }),
  ];
}
