/**
 * Spam settings: the operators' default, a domain's, a mailbox's; which one applies; changes with
 * who made them. rspamd reads them as a map (mail-server-routes.ts) and the mailboxes' Sieve
 * filing reads them through mail_sieve (migration 0022), so a change applies within a minute.
 */
import { z } from 'zod';
import { spamFilters, spamScore, type SpamSettings } from '../../resources/spam.js';
import { wholeNumber } from '../../resources/define.js';
import { actorForLog } from '../core/actor.js';
import { audit } from '../core/audit.js';
import type { CallContext } from '../core/calls.js';
import { fieldError } from '../core/errors.js';
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { SpamDefaultRow } from '../db/schema.js';

const toScore = (tenths: number) => tenths / 10;
const toTenths = (score: number) => Math.round(score * 10);

/** A domain's or mailbox's setting as written: inherit, off, or on with both scores (junk below reject). */
export const settingInput = z.object({
  filter: z.enum(spamFilters),
  junk_score: spamScore.optional(),
  reject_score: spamScore.optional(),
});
export type SettingInput = z.output<typeof settingInput>;

export const defaultsInput = z.object({
  filter: z.enum(['on', 'off']),
  junk_score: spamScore,
  reject_score: spamScore,
  /** Messages per hour a mailbox may always submit before its rate is looked at. */
  hourly_floor: wholeNumber(1, 1_000_000),
  /** Held when it sends more than this many times its usual hourly count. */
  rate_factor: wholeNumber(2, 1000),
});

function scoresOf(input: { filter: string; junk_score?: number; reject_score?: number }) {
  if (input.filter !== 'on') return undefined;
  if (input.junk_score === undefined) throw fieldError('junk_score', 'validation.required');
  if (input.reject_score === undefined) throw fieldError('reject_score', 'validation.required');
  if (input.junk_score >= input.reject_score) throw fieldError('junk_score', 'validation.spam_junk_below_reject');
  return { junk_tenths: toTenths(input.junk_score), reject_tenths: toTenths(input.reject_score) };
}

const nameOf = (ctx: CallContext) => {
  const { actor_type, actor_name } = actorForLog(ctx.actor);
  return `${actor_type}:${actor_name}`;
};

export async function defaultsOf(db: Db): Promise<SpamDefaultRow> {
  return db.selectFrom('spam_default').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
}

export const defaultsView = (row: SpamDefaultRow) => ({
  filter: row.filter,
  junk_score: toScore(row.junk_tenths),
  reject_score: toScore(row.reject_tenths),
  hourly_floor: row.hourly_floor,
  rate_factor: row.rate_factor,
  updated_at: row.updated_at,
  updated_by: row.updated_by,
});

export async function updateDefaults(ctx: CallContext, input: z.output<typeof defaultsInput>) {
  const scores = scoresOf(input)!;
  return ctx.services.db.transaction().execute(async (trx) => {
    const before = defaultsView(await defaultsOf(trx));
    await trx
      .updateTable('spam_default')
      .set({ filter: input.filter, ...scores, hourly_floor: input.hourly_floor, rate_factor: input.rate_factor, updated_at: now(), updated_by: nameOf(ctx) })
      .where('id', '=', 1)
      .execute();
    const after = defaultsView(await defaultsOf(trx));
    await audit(trx, ctx, { action: 'update', targetType: 'spam_default', targetId: 1, before, after });
    return after;
  });
}

/** What a domain or mailbox is, for its setting. */
export interface SpamTarget {
  owner_id: number;
  domain_id: number;
  /** Absent: the domain's own setting. */
  mailbox_id?: number;
}

const rowOf = (db: Db, target: SpamTarget) => {
  const query = db.selectFrom('spam_setting').selectAll().where('domain_id', '=', target.domain_id);
  return (target.mailbox_id ? query.where('mailbox_id', '=', target.mailbox_id) : query.where('mailbox_id', 'is', null)).executeTakeFirst();
};

export async function settingsOf(db: Db, target: SpamTarget): Promise<SpamSettings> {
  const [own, domain, defaults] = await Promise.all([rowOf(db, target), target.mailbox_id ? rowOf(db, { ...target, mailbox_id: undefined }) : undefined, defaultsOf(db)]);
  const source: [{ filter: 'on' | 'off'; junk_tenths: number; reject_tenths: number }, 'mailbox' | 'domain' | 'default'] = own ? [own, target.mailbox_id ? 'mailbox' : 'domain'] : domain ? [domain, 'domain'] : [defaults, 'default'];
  const [applies, from] = source;
  return {
    filter: own ? own.filter : 'inherit',
    junk_score: own ? toScore(own.junk_tenths) : null,
    reject_score: own ? toScore(own.reject_tenths) : null,
    effective: { filter: applies.filter, junk_score: toScore(applies.junk_tenths), reject_score: toScore(applies.reject_tenths), from },
    updated_at: own?.updated_at ?? null,
    updated_by: own?.updated_by ?? null,
  };
}

/** Sets (or, with inherit, removes) a domain's or mailbox's own setting, logged with before and after. */
export async function updateSettings(ctx: CallContext, target: SpamTarget, input: SettingInput) {
  const scores = scoresOf(input);
  const { db } = ctx.services;
  return db.transaction().execute(async (trx) => {
    const before = await settingsOf(trx, target);
    const existing = await rowOf(trx, target);
    if (input.filter === 'inherit') {
      if (existing) await trx.deleteFrom('spam_setting').where('id', '=', existing.id).execute();
    } else {
      // Off keeps the scores it had (or the defaults'), for when it is turned on again.
      const values = { filter: input.filter, junk_tenths: scores?.junk_tenths ?? existing?.junk_tenths ?? toTenths(before.effective.junk_score), reject_tenths: scores?.reject_tenths ?? existing?.reject_tenths ?? toTenths(before.effective.reject_score), updated_at: now(), updated_by: nameOf(ctx) };
      if (existing) await trx.updateTable('spam_setting').set(values).where('id', '=', existing.id).execute();
      else await trx.insertInto('spam_setting').values({ owner_id: target.owner_id, domain_id: target.domain_id, mailbox_id: target.mailbox_id ?? null, ...values }).execute();
    }
    const after = await settingsOf(trx, target);
    await audit(trx, ctx, {
      action: 'update',
      targetType: target.mailbox_id ? 'email_spam' : 'domain_spam',
      targetId: target.mailbox_id ?? target.domain_id,
      userId: target.owner_id,
      before: { filter: before.filter, junk_score: before.junk_score, reject_score: before.reject_score },
      after: { filter: after.filter, junk_score: after.junk_score, reject_score: after.reject_score },
    });
    return after;
  });
}
