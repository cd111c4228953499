/**
 * A PostfixAdmin database as items to import, for the customers the operator chose per domain:
 * domains (limits kept, backup-MX domains not), mailboxes (hash kept with its {SCHEME}, quota,
 * name, active), aliases (catch-alls too; a mailbox's own alias row becomes its forwarding when
 * it sends elsewhere as well), alias domains within one customer, and vacation messages as the
 * owner's out-of-office. Whatever is left behind is named in the report's not_carried.
 */
import { MAX_QUOTA_BYTES, MiB } from '../../resources/define.js';
import { AppError } from '../core/errors.js';
import type { Db } from '../db/index.js';
import { asciiDomain, mailAddress } from '../mail/names.js';
import { DEFAULT_INTERVAL_DAYS, MAX_FORWARD_ADDRESSES, type OutOfOffice } from '../mail/rules.js';
import { normaliseHash } from './hashes.js';
import type { ImportItem, ImportReport, NotCarried } from './items.js';
import type { PostfixAdminData } from './postfixadmin-source.js';

export interface DomainChoice {
  domain: string;
  /** The customer it goes to; null: not imported. */
  customer_id: number | null;
}

/** PostfixAdmin's vacation replies go through addresses like anna#example.org@autoreply.example.org. */
const isAutoreply = (address: string) => address.split('@')[0].includes('#');

// PostfixAdmin's "no date" defaults for a vacation's window.
const openStart = (iso: string | null) => (iso && iso > '2000-01-02' ? iso : null);
const openEnd = (iso: string | null) => (iso && iso < '2038-01-01' ? iso : null);

export async function planPostfixAdmin(db: Db, data: PostfixAdminData, choices: DomainChoice[]) {
  const chosen = new Map<string, number>();
  for (const choice of choices) if (choice.customer_id) chosen.set(choice.domain.toLowerCase(), choice.customer_id);
  const customerIds = [...new Set(chosen.values())];
  const customers = customerIds.length ? await db.selectFrom('user').select(['id', 'storage_max']).where('id', 'in', customerIds).where('owner_id', 'is', null).execute() : [];
  const storageMax = new Map(customers.map((c) => [Number(c.id), Number(c.storage_max)]));
  const unknown = customerIds.find((id) => !storageMax.has(id));
  if (unknown) throw new AppError('validation', 'error.validation', undefined, { mapping: { message: 'validation.not_a_customer', params: { id: unknown } } });

  const items: ImportItem[] = [];
  const notCarried: NotCarried[] = [];
  const skip = (kind: string, name: string, reason: string) => notCarried.push({ kind, name, reason });
  const ownerOf = (domain: string) => chosen.get(domain);
  const summary = new Map<string, { name: string; customer_id: number | null; action: 'create' | 'exists' | 'conflict' | 'skipped'; mailboxes: number; aliases: number }>();

  for (const d of data.domains) {
    if (d.domain === 'all') continue; // PostfixAdmin's pseudo-domain for superadmins
    const owner = ownerOf(d.domain);
    summary.set(d.domain, { name: d.domain, customer_id: owner ?? null, action: owner ? 'create' : 'skipped', mailboxes: 0, aliases: 0 });
    if (!owner) {
      skip('domain', d.domain, 'not_chosen');
      continue;
    }
    const name = asciiDomain(d.domain);
    if (!name || d.backupmx) {
      // Left behind, with what it holds: the dry run's line says so, not that it is here.
      skip('domain', d.domain, name ? 'backup_mx' : 'invalid_name');
      chosen.delete(d.domain);
      summary.get(d.domain)!.action = 'skipped';
      continue;
    }
    if (d.transport && !/^(virtual|dovecot|lmtp)/i.test(d.transport)) skip('domain', d.domain, 'transport');
    items.push({
      kind: 'domain',
      name,
      owner_id: owner,
      active: d.active,
      max_mailboxes: d.mailboxes > 0 ? d.mailboxes : 0,
      max_aliases: d.aliases > 0 ? d.aliases : 0,
      max_quota: d.maxquota > 0 ? Math.min(MAX_QUOTA_BYTES, d.maxquota * MiB) : 0,
    });
  }

  for (const a of data.aliasDomains) {
    const owner = ownerOf(a.alias_domain);
    if (!owner && !ownerOf(a.target_domain)) continue;
    if (!owner || ownerOf(a.target_domain) !== owner) skip('alias_domain', a.alias_domain, 'other_customer');
    else items.push({ kind: 'alias_domain', alias: a.alias_domain, target: a.target_domain, owner_id: owner, active: a.active });
  }

  const mailboxOwner = new Map<string, number>();
  for (const m of data.mailboxes) {
    const owner = ownerOf(m.domain);
    if (!owner) continue;
    const address = mailAddress(m.username);
    const hash = normaliseHash(m.password);
    if (!address) {
      skip('mailbox', m.username, 'invalid_address');
      continue;
    }
    if (!hash) {
      skip('mailbox', m.username, 'unknown_hash');
      continue;
    }
    // 0 is "no limit" in PostfixAdmin: here every mailbox has a quota, the customer's largest.
    const quota = m.quota > 0 ? Math.min(MAX_QUOTA_BYTES, Math.max(MiB, m.quota)) : storageMax.get(owner)!;
    if (m.quota <= 0) skip('quota', m.username, 'unlimited_quota');
    items.push({ kind: 'mailbox', address: address.ascii, owner_id: owner, name: m.name.slice(0, 128), password_hash: hash, quota, active: m.active });
    mailboxOwner.set(address.ascii, owner);
    summary.get(m.domain)!.mailboxes++;
  }

  const sourceMailboxes = new Set(data.mailboxes.map((m) => m.username));
  const rules = new Map<string, Extract<ImportItem, { kind: 'rules' }>>();
  const rulesOf = (address: string, owner: number) => rules.get(address) ?? rules.set(address, { kind: 'rules', address, owner_id: owner }).get(address)!;

  for (const a of data.aliases) {
    const owner = ownerOf(a.domain);
    if (!owner) continue;
    const targets = [...new Set(a.goto.split(/[\s,]+/).map((s) => s.trim().toLowerCase()).filter(Boolean))].filter((t) => !isAutoreply(t));
    const invalid = targets.find((t) => !mailAddress(t));
    const catchAll = a.address.startsWith('@');
    const address = catchAll ? (asciiDomain(a.address.slice(1)) ? `@${asciiDomain(a.address.slice(1))}` : undefined) : mailAddress(a.address)?.ascii;
    if (!address) {
      skip('alias', a.address, 'invalid_address');
      continue;
    }
    if (invalid) {
      skip('alias', a.address, 'invalid_destination');
      continue;
    }
    const ownMailbox = mailboxOwner.get(address);
    // The own row of a mailbox left behind (its hash unknown) stays behind with it.
    if (!ownMailbox && sourceMailboxes.has(address)) continue;
    if (ownMailbox) {
      // A mailbox's own row: itself (delivery) and any others (forwarding).
      const others = targets.filter((t) => t !== address);
      if (others.length === 0) continue;
      if (others.length > MAX_FORWARD_ADDRESSES) {
        skip('forwarding', address, 'too_many_targets');
        continue;
      }
      rulesOf(address, ownMailbox).forwarding = { addresses: others.map((t) => mailAddress(t)!.ascii), keep_copy: targets.includes(address) };
      continue;
    }
    if (targets.length === 0) continue; // only vacation replies
    if (targets.length > 100) {
      skip('alias', a.address, 'too_many_targets');
      continue;
    }
    items.push({ kind: 'alias', address, owner_id: owner, goto: targets.map((t) => mailAddress(t)!.ascii).join(','), active: a.active });
    summary.get(a.domain) && summary.get(a.domain)!.aliases++;
  }

  for (const v of data.vacations) {
    const owner = mailboxOwner.get(v.email);
    if (!owner) continue;
    const ooo: OutOfOffice = {
      enabled: v.active && v.subject.trim() !== '' && v.body.trim() !== '',
      starts_at: openStart(v.activefrom),
      ends_at: openEnd(v.activeuntil),
      time_zone: 'UTC',
      subject: v.subject.slice(0, 255),
      body: v.body.slice(0, 10_000),
      interval_days: v.interval_time > 0 ? Math.min(30, Math.max(1, Math.ceil(v.interval_time / 86_400))) : DEFAULT_INTERVAL_DAYS,
    };
    if (ooo.starts_at && ooo.ends_at && ooo.ends_at <= ooo.starts_at) ooo.ends_at = null;
    rulesOf(v.email, owner).out_of_office = ooo;
  }
  items.push(...rules.values());
  return { items, notCarried, summary: [...summary.values()] };
}

/** The report's per-domain lines: made by this import, already the customer's, or another's. */
export function domainLines(summary: Awaited<ReturnType<typeof planPostfixAdmin>>['summary'], create: ImportItem[], report: ImportReport): NonNullable<ImportReport['domains']> {
  const made = new Set(create.flatMap((item) => (item.kind === 'domain' ? [item.name] : [])));
  const conflicting = new Set(report.conflicts.filter((c) => c.kind === 'domain').map((c) => c.name));
  return summary.map((line) => (line.action !== 'create' ? line : { ...line, action: conflicting.has(line.name) ? 'conflict' : made.has(line.name) ? 'create' : 'exists' }));
}
