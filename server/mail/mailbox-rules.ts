/**
 * A mailbox's rules as people set them (the owner, the customer's team, operators): read, changed
 * one part at a time, and written together with the Sieve script made of them, in one transaction,
 * so that the next delivery runs what the last change said. The log says who changed what.
 */
import { z } from 'zod';
import { emailAddress, wholeNumber } from '../../resources/define.js';
import { lineText, longText } from '../../resources/text.js';
import { actorForLog } from '../core/actor.js';
import { audit, changedFields } from '../core/audit.js';
import type { CallContext } from '../core/calls.js';
import { fieldError } from '../core/errors.js';
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { MailboxRuleRow } from '../db/schema.js';
import { DEFAULT_INTERVAL_DAYS, forwardTargets, MAX_FORWARD_ADDRESSES, noRules, scriptIdOf, sieveScript, type MailboxRules } from './rules.js';
import { oneOf } from '../db/one-of.js';

/** The mailbox whose rules a call reads or changes, as the caller may see it. */
export interface RuleTarget {
  id: number;
  address: string;
  owner_id: number;
  domain_id: number;
}

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1);
const instant = z.iso.datetime({ offset: true }).nullable().optional();

export const outOfOfficeInput = z.object({
  enabled: flag,
  starts_at: instant,
  ends_at: instant,
  time_zone: z.string().max(64).refine(isTimeZone, 'validation.time_zone').optional(),
  subject: lineText(0, 255).optional(),
  body: longText(0, 10_000).optional(),
  interval_days: wholeNumber(1, 30).optional(),
});

export const forwardingInput = z.object({
  enabled: flag,
  addresses: z.array(emailAddress).max(MAX_FORWARD_ADDRESSES).optional(),
  keep_copy: flag.optional(),
});

const fromRow = (row: MailboxRuleRow | undefined): MailboxRules & { updated_at: string | null; updated_by: string | null } =>
  row
    ? {
        out_of_office: {
          enabled: row.out_of_office === 1,
          starts_at: row.ooo_starts_at,
          ends_at: row.ooo_ends_at,
          time_zone: row.ooo_time_zone,
          subject: row.ooo_subject,
          body: row.ooo_body,
          interval_days: Number(row.ooo_interval_days),
        },
        forwarding: { enabled: row.forwarding === 1, addresses: JSON.parse(row.forward_to) as string[], keep_copy: row.forward_keep_copy === 1 },
        updated_at: row.updated_at,
        updated_by: row.updated_by,
      }
    : { ...noRules, updated_at: null, updated_by: null };

/** The rules of a mailbox (defaults when it has none), with when and by whom they last changed. */
export async function rulesOf(db: Db, mailboxId: number) {
  return fromRow(await db.selectFrom('mailbox_rule').selectAll().where('mailbox_id', '=', mailboxId).executeTakeFirst());
}

/** Addresses that deliver to the mailbox, from its aliases (catch-alls aside): those that deliver to it and others too, and those that deliver only to it. */
export async function aliasesOf(db: Db, box: RuleTarget): Promise<{ delivering: string[]; onlyToIt: string[] }> {
  const rows = await db.selectFrom('alias').select(['address', 'goto']).where('owner_id', '=', box.owner_id).where('goto', 'like', `%${box.address}%`).where('active', '=', 1).orderBy('address').execute();
  const delivering: string[] = [];
  const onlyToIt: string[] = [];
  for (const row of rows) {
    if (row.address.startsWith('@')) continue;
    const targets = row.goto.split(',').map((a) => a.trim().toLowerCase());
    if (!targets.includes(box.address)) continue;
    delivering.push(row.address);
    if (targets.every((a) => a === box.address)) onlyToIt.push(row.address);
  }
  return { delivering, onlyToIt };
}

/**
 * Every address that is the mailbox's own: itself, the aliases that deliver only to it, and their
 * forms in alias domains (whom an out-of-office answers). With `shared`, also the aliases that
 * deliver to it among others (where forwarding must not go: the mail would come back).
 */
export async function ownAddressesOf(db: Db, box: RuleTarget, shared = false): Promise<string[]> {
  const { onlyToIt, delivering } = await aliasesOf(db, box);
  const names = [box.address, ...(shared ? delivering : onlyToIt)];
  const domains = [...new Set(names.map((a) => a.split('@')[1]))];
  const aliasDomains = await db
    .selectFrom('alias_domain as ad')
    .innerJoin('domain as a', 'a.id', 'ad.alias_domain_id')
    .innerJoin('domain as t', 't.id', 'ad.target_domain_id')
    .select(['a.name as alias', 't.name as target'])
    .where('ad.owner_id', '=', box.owner_id)
    .where('t.name', 'in', oneOf(db, domains))
    .execute();
  const forms = names.flatMap((address) => {
    const [local, domain] = address.split('@');
    return aliasDomains.filter((d) => d.target === domain).map((d) => `${local}@${d.alias}`);
  });
  return [...new Set([...names, ...forms])];
}

/** How the log and the rules name who changed them: "mailbox:anna@example.org", "operator:root". */
const nameOf = (ctx: CallContext) => {
  const { actor_type, actor_name } = actorForLog(ctx.actor);
  return `${actor_type}:${actor_name}`;
};

/** Writes the rules and the script made of them (or removes the script), and logs the change. */
async function saveRules(ctx: CallContext, box: RuleTarget, action: string, change: (current: MailboxRules, comesBack: string[]) => MailboxRules) {
  const { db } = ctx.services;
  const [own, comesBack] = await Promise.all([ownAddressesOf(db, box), ownAddressesOf(db, box, true)]);
  return db.transaction().execute(async (trx) => {
    const current = await rulesOf(trx, box.id);
    const next = change(current, comesBack);
    const at = now();
    const updated_by = nameOf(ctx);
    const row = {
      out_of_office: next.out_of_office.enabled ? 1 : 0,
      ooo_starts_at: next.out_of_office.starts_at,
      ooo_ends_at: next.out_of_office.ends_at,
      ooo_time_zone: next.out_of_office.time_zone,
      ooo_subject: next.out_of_office.subject,
      ooo_body: next.out_of_office.body,
      ooo_interval_days: next.out_of_office.interval_days,
      forwarding: next.forwarding.enabled ? 1 : 0,
      forward_to: JSON.stringify(next.forwarding.addresses),
      forward_keep_copy: next.forwarding.keep_copy ? 1 : 0,
      updated_at: at,
      updated_by,
    };
    await trx
      .insertInto('mailbox_rule')
      .values({ mailbox_id: box.id, ...row })
      .onConflict((oc) => oc.column('mailbox_id').doUpdateSet(row))
      .execute();
    const script = sieveScript(next, own);
    if (script === null) {
      await trx.deleteFrom('mailbox_sieve').where('mailbox_id', '=', box.id).execute();
    } else {
      const sieve = { script_id: scriptIdOf(box.id, script), script, updated_at: at };
      await trx
        .insertInto('mailbox_sieve')
        .values({ mailbox_id: box.id, ...sieve })
        .onConflict((oc) => oc.column('mailbox_id').doUpdateSet(sieve))
        .execute();
    }
    const part = action === 'update_out_of_office' ? 'out_of_office' : 'forwarding';
    const diff = changedFields(current[part] as unknown as Record<string, unknown>, next[part] as unknown as Record<string, unknown>);
    await audit(trx, ctx, { action, targetType: 'email', targetId: box.id, userId: box.owner_id, before: { address: box.address, ...diff.before }, after: { address: box.address, ...diff.after } });
    return { ...next, updated_at: at, updated_by };
  });
}

export function updateOutOfOffice(ctx: CallContext, box: RuleTarget, input: z.output<typeof outOfOfficeInput>) {
  const starts = input.starts_at ? new Date(input.starts_at).toISOString() : input.starts_at;
  const ends = input.ends_at ? new Date(input.ends_at).toISOString() : input.ends_at;
  return saveRules(ctx, box, 'update_out_of_office', (current) => {
    const next = {
      ...current.out_of_office,
      enabled: input.enabled,
      ...(starts !== undefined ? { starts_at: starts } : {}),
      ...(ends !== undefined ? { ends_at: ends } : {}),
      ...(input.time_zone !== undefined ? { time_zone: input.time_zone } : {}),
      ...(input.subject !== undefined ? { subject: input.subject } : {}),
      ...(input.body !== undefined ? { body: input.body } : {}),
      interval_days: input.interval_days ?? current.out_of_office.interval_days ?? DEFAULT_INTERVAL_DAYS,
    };
    if (next.starts_at && next.ends_at && next.ends_at <= next.starts_at) throw fieldError('ends_at', 'validation.ends_before_start');
    if (next.enabled && !next.subject) throw fieldError('subject', 'validation.required');
    if (next.enabled && !next.body.trim()) throw fieldError('body', 'validation.required');
    return { ...current, out_of_office: next };
  });
}

export function updateForwarding(ctx: CallContext, box: RuleTarget, input: z.output<typeof forwardingInput>) {
  return saveRules(ctx, box, 'update_forwarding', (current, comesBack) => {
    const checked = forwardTargets(input.addresses ?? current.forwarding.addresses, comesBack);
    if ('problem' in checked) {
      throw checked.problem === 'own_address' ? fieldError('addresses', 'validation.forward_to_own_address', { address: checked.address }) : fieldError('addresses', 'validation.too_many', { max: MAX_FORWARD_ADDRESSES, smart_count: MAX_FORWARD_ADDRESSES });
    }
    if (input.enabled && checked.targets.length === 0) throw fieldError('addresses', 'validation.required');
    return { ...current, forwarding: { enabled: input.enabled, addresses: checked.targets, keep_copy: input.keep_copy ?? current.forwarding.keep_copy } };
  });
}
