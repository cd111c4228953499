/**
 * An import's items held against what is already here: what would be created, and what
 * conflicts (an address already here, a domain of another customer, an address a deleted
 * mailbox still holds). What is here always wins: a conflicting item is skipped, never changed,
 * which is also why a second run of the same import creates nothing. Read in chunks of indexed
 * `IN` lookups, so that 10,000 rows cost a few dozen queries.
 */
import type { Db } from '../db/index.js';
import { oneOf } from '../db/one-of.js';
import { heldStates } from '../mail/mailbox-deletion.js';
import { schemeOf } from '../mail/password-schemes.js';
import { allocationFrom, allocationReads } from '../storage/capacity.js';
import { isWeak } from './hashes.js';
import { emptyCounts, inOrder, type Conflict, type ImportItem, type ImportReport } from './items.js';

const CHUNK = 500;

async function inChunks<T>(values: string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  const unique = [...new Set(values)];
  for (let i = 0; i < unique.length; i += CHUNK) out.push(...(await read(unique.slice(i, i + CHUNK))));
  return out;
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);

/** What is here of the items' domains and addresses. */
export async function readHere(db: Db, items: ImportItem[]) {
  const domainNames = new Set<string>();
  const addresses: string[] = [];
  for (const item of items) {
    if (item.kind === 'domain') domainNames.add(item.name);
    else if (item.kind === 'alias_domain') domainNames.add(item.alias).add(item.target);
    else {
      domainNames.add(domainOf(item.address));
      addresses.push(item.address);
    }
  }
  const [domains, mailboxes, aliases, held, aliasDomains] = await Promise.all([
    inChunks([...domainNames], (c) => db.selectFrom('domain').select(['id', 'name', 'owner_id', 'name_unicode']).where('name', 'in', oneOf(db, c)).execute()),
    inChunks(addresses, (c) => db.selectFrom('mailbox').select(['id', 'address', 'owner_id']).where('address', 'in', oneOf(db, c)).execute()),
    inChunks(addresses, (c) => db.selectFrom('alias').select(['address', 'owner_id']).where('address', 'in', oneOf(db, c)).execute()),
    inChunks(addresses, (c) => db.selectFrom('deleted_mailbox').select('address').where('address', 'in', oneOf(db, c)).where('state', 'in', heldStates).execute()),
    inChunks([...domainNames], (c) => db.selectFrom('alias_domain as ad').innerJoin('domain as d', 'd.id', 'ad.alias_domain_id').select('d.name').where('d.name', 'in', oneOf(db, c)).execute()),
  ]);
  const mailboxIds = mailboxes.map((m) => String(m.id));
  const rules = await inChunks(mailboxIds, (c) => db.selectFrom('mailbox_rule').select('mailbox_id').where('mailbox_id', 'in', c.map(Number)).execute());
  const ruled = new Set(rules.map((r) => Number(r.mailbox_id)));
  return {
    domains: new Map(domains.map((d) => [d.name, { id: Number(d.id), owner_id: Number(d.owner_id), name_unicode: d.name_unicode }])),
    mailboxes: new Map(mailboxes.map((m) => [m.address, { id: Number(m.id), owner_id: Number(m.owner_id), hasRules: ruled.has(Number(m.id)) }])),
    aliases: new Map(aliases.map((a) => [a.address, Number(a.owner_id)])),
    held: new Set(held.map((h) => h.address)),
    aliasDomains: new Set(aliasDomains.map((a) => a.name)),
  };
}

export interface Checked {
  /** What would be created, in the order it must be. */
  create: ImportItem[];
  conflicts: Conflict[];
}

/** Splits items into what would be created and what conflicts with what is here. */
export async function checkAgainstHere(db: Db, items: ImportItem[], lineOf?: (item: ImportItem) => number | undefined): Promise<Checked> {
  const here = await readHere(db, items);
  const conflicts: Conflict[] = [];
  const create: ImportItem[] = [];
  const conflict = (item: ImportItem, name: string, reason: Conflict['reason']) => conflicts.push({ kind: item.kind, name, reason, ...(lineOf?.(item) ? { line: lineOf(item) } : {}) });
  // Domains each item may use: here and the customer's, or made by this import.
  const usable = new Map<string, number>();
  const refused = new Set<string>();
  for (const item of items) {
    if (item.kind !== 'domain') continue;
    const found = here.domains.get(item.name);
    if (!found) {
      usable.set(item.name, item.owner_id);
      create.push(item);
    } else if (found.owner_id === item.owner_id) usable.set(item.name, item.owner_id);
    else {
      refused.add(item.name);
      conflict(item, item.name, 'domain_of_other_customer');
    }
  }
  const domainUsable = (name: string, owner: number) => {
    if (usable.has(name)) return usable.get(name) === owner;
    const found = here.domains.get(name);
    if (found && found.owner_id === owner) {
      usable.set(name, owner);
      return true;
    }
    return false;
  };
  const mailboxesMade = new Set<string>();
  for (const item of items) {
    switch (item.kind) {
      case 'domain':
        break;
      case 'alias_domain':
        if (refused.has(item.alias) || refused.has(item.target) || !domainUsable(item.alias, item.owner_id) || !domainUsable(item.target, item.owner_id)) conflict(item, item.alias, 'domain_skipped');
        else if (here.aliasDomains.has(item.alias)) conflict(item, item.alias, 'already_here');
        else create.push(item);
        break;
      case 'mailbox':
      case 'alias': {
        const domain = domainOf(item.address);
        if (refused.has(domain) || !domainUsable(domain, item.owner_id)) {
          conflict(item, item.address, 'domain_skipped');
          break;
        }
        const asMailbox = here.mailboxes.get(item.address);
        const asAlias = here.aliases.get(item.address);
        const same = item.kind === 'mailbox' ? asMailbox?.owner_id : asAlias;
        const other = item.kind === 'mailbox' ? asAlias : asMailbox?.owner_id;
        if (same !== undefined) conflict(item, item.address, same === item.owner_id ? 'already_here' : 'other_customer');
        else if (other !== undefined) conflict(item, item.address, item.kind === 'mailbox' ? 'alias_here' : 'mailbox_here');
        else if (here.held.has(item.address)) conflict(item, item.address, 'held');
        else {
          create.push(item);
          if (item.kind === 'mailbox') mailboxesMade.add(item.address);
        }
        break;
      }
      case 'rules': {
        const found = here.mailboxes.get(item.address);
        if (mailboxesMade.has(item.address)) create.push(item);
        else if (found && found.owner_id === item.owner_id && !found.hasRules) create.push(item);
        else if (found && found.owner_id === item.owner_id) conflict(item, item.address, 'already_here');
        // A mailbox in conflict takes its rules with it: reported once, for the mailbox.
        break;
      }
    }
  }
  return { create: inOrder(create), conflicts };
}

/** Customers whose new mailboxes' quotas exceed what their storage has left. */
export async function capacityShortfalls(db: Db, create: ImportItem[]) {
  const wanted = new Map<number, number>();
  for (const item of create) if (item.kind === 'mailbox') wanted.set(item.owner_id, (wanted.get(item.owner_id) ?? 0) + item.quota);
  const out: ImportReport['capacity'] = [];
  for (const [owner, quota] of wanted) {
    const allocation = allocationFrom(await db.selectNoFrom(allocationReads(db, owner)).executeTakeFirst());
    if (quota <= allocation.available) continue;
    // Named as people know the customer (their address and name), not by a number.
    const customer = await db.selectFrom('user').select(['email', 'username']).where('id', '=', owner).executeTakeFirst();
    out.push({ customer_id: owner, customer_email: customer?.email ?? '', customer_name: customer?.username ?? '', shortfall: quota - allocation.available });
  }
  return out;
}

/** The report of a dry run, from what would be created and what conflicts. */
export async function reportOf(db: Db, checked: Checked, notCarried: ImportReport['not_carried']): Promise<ImportReport> {
  const create = emptyCounts();
  const schemes: Record<string, number> = {};
  for (const item of checked.create) {
    create[item.kind]++;
    if (item.kind === 'mailbox' && !item.password && isWeak(item.password_hash)) {
      const scheme = schemeOf(item.password_hash) ?? 'UNKNOWN';
      schemes[scheme] = (schemes[scheme] ?? 0) + 1;
    }
  }
  return { create, conflicts: checked.conflicts, not_carried: notCarried, capacity: await capacityShortfalls(db, checked.create), schemes };
}
