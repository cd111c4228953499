/**
 * Making an import's items, one batch per transaction, each batch with the run's progress: after
 * a crash the run resumes at the first batch not committed, and every item is made only where
 * nothing is there yet (the same rule as the dry run), so that nothing is ever doubled and a
 * second run of the same import creates nothing.
 */
import crypto from 'node:crypto';
import type { Db } from '../db/index.js';
import { oneOf } from '../db/one-of.js';
import { dkimKeyPair, selectorOf } from '../mail/dkim.js';
import { unicodeDomain } from '../mail/names.js';
import { noRules, scriptIdOf, sieveScript, type MailboxRules } from '../mail/rules.js';
import { ownAddressesOf } from '../mail/mailbox-rules.js';
import { placeMailbox, type StorePlace } from '../mail/stores/placement.js';
import { now } from '../core/time.js';
import { checkAgainstHere } from './against-here.js';
import type { ImportItem, ItemKind } from './items.js';

type Of<K extends ItemKind> = Extract<ImportItem, { kind: K }>;

const localOf = (address: string) => address.slice(0, address.lastIndexOf('@'));
const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);
const unicodeNames = new Map<string, string>();
/** Domains' Unicode names, worked out once each (a batch holds few domains in many records); the panel runs for years, so the memory is bounded. */
function unicodeOf(domain: string) {
  let name = unicodeNames.get(domain);
  if (name === undefined) {
    if (unicodeNames.size >= 10_000) unicodeNames.clear();
    name = unicodeDomain(domain);
    unicodeNames.set(domain, name);
  }
  return name;
}
const unicodeAddress = (address: string) => `${localOf(address)}@${unicodeOf(domainOf(address))}`;

/** Domains' DKIM keys take a while: made before the batch's transaction opens. */
async function keysFor(items: ImportItem[]) {
  const keys = new Map<string, Awaited<ReturnType<typeof dkimKeyPair>>>();
  for (const item of items) if (item.kind === 'domain') keys.set(item.name, await dkimKeyPair());
  return keys;
}

async function domainIds(trx: Db, names: string[]) {
  if (names.length === 0) return new Map<string, { id: number; name_unicode: string; owner_id: number; mail_store_id: number | null }>();
  const rows = await trx.selectFrom('domain').select(['id', 'name', 'name_unicode', 'owner_id', 'mail_store_id']).where('name', 'in', oneOf(trx, [...new Set(names)])).execute();
  return new Map(rows.map((r) => [r.name, { id: Number(r.id), name_unicode: r.name_unicode, owner_id: Number(r.owner_id), mail_store_id: r.mail_store_id }]));
}

/**
 * Makes what of `batch` is not here yet, in `trx`; answers how many of each kind it made.
 * `who`: how the rules name their author ("operator:root").
 */
export async function applyBatch(trx: Db, batch: ImportItem[], keys: Awaited<ReturnType<typeof keysFor>>, who: string): Promise<Partial<Record<ItemKind, number>>> {
  const { create } = await checkAgainstHere(trx, batch);
  const made: Partial<Record<ItemKind, number>> = {};
  const count = (kind: ItemKind, n: number) => n > 0 && (made[kind] = (made[kind] ?? 0) + n);
  const at = now();
  const of = <K extends ItemKind>(kind: K) => create.filter((i): i is Of<K> => i.kind === kind);

  const domains = of('domain');
  for (const d of domains) {
    const key = keys.get(d.name) ?? (await dkimKeyPair());
    await trx
      .insertInto('domain')
      .values({
        owner_id: d.owner_id,
        name: d.name,
        name_unicode: unicodeDomain(d.name),
        // An operator's import vouches for the domain, as an operator's activation does.
        status: d.active ? 'active' : 'suspended',
        verified_at: at,
        verified_by: 'operator',
        verify_token: crypto.randomBytes(16).toString('hex'),
        max_mailboxes: d.max_mailboxes,
        max_aliases: d.max_aliases,
        max_quota: d.max_quota,
        dkim_selector: selectorOf(new Date()),
        dkim_private_key: key.privateKey,
        dkim_public_key: key.publicKey,
        note: '',
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  count('domain', domains.length);

  const rest = create.filter((i) => i.kind !== 'domain');
  const ids = await domainIds(trx, rest.flatMap((i) => (i.kind === 'alias_domain' ? [i.alias, i.target] : [domainOf(i.address)])));

  const aliasDomains = of('alias_domain');
  for (const a of aliasDomains) {
    await trx.insertInto('alias_domain').values({ owner_id: a.owner_id, alias_domain_id: ids.get(a.alias)!.id, target_domain_id: ids.get(a.target)!.id, active: a.active ? 1 : 0, created_at: at, updated_at: at }).execute();
  }
  count('alias_domain', aliasDomains.length);

  const mailboxes = of('mailbox');
  if (mailboxes.length) {
    // Placed as the panel places a new mailbox, once per domain of the batch.
    const places = new Map<string, StorePlace>();
    for (const name of new Set(mailboxes.map((m) => domainOf(m.address)))) places.set(name, await placeMailbox(trx, ids.get(name)!));
    await trx
      .insertInto('mailbox')
      .values(
        mailboxes.map((m) => ({
          ...places.get(domainOf(m.address))!,
          owner_id: m.owner_id,
          domain_id: ids.get(domainOf(m.address))!.id,
          local_part: localOf(m.address),
          address: m.address,
          address_unicode: unicodeAddress(m.address),
          password_hash: m.password_hash,
          name: m.name,
          quota: m.quota,
          active: m.active ? 1 : 0,
          delivery_checked_at: null,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
  }
  count('mailbox', mailboxes.length);

  const aliases = of('alias');
  if (aliases.length) {
    await trx
      .insertInto('alias')
      .values(
        aliases.map((a) => ({
          owner_id: a.owner_id,
          domain_id: ids.get(domainOf(a.address))!.id,
          local_part: localOf(a.address),
          address: a.address,
          address_unicode: a.address.startsWith('@') ? `@${unicodeOf(domainOf(a.address))}` : unicodeAddress(a.address),
          goto: a.goto,
          active: a.active ? 1 : 0,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
  }
  count('alias', aliases.length);

  const rules = of('rules');
  for (const r of rules) await writeRules(trx, r, who, at);
  count('rules', rules.length);
  return made;
}

/** A mailbox's first rules and the Sieve script made of them (server/mail/mailbox-rules.ts keeps them from then on). */
async function writeRules(trx: Db, item: Of<'rules'>, who: string, at: string) {
  const box = await trx.selectFrom('mailbox').select(['id', 'address', 'owner_id', 'domain_id']).where('address', '=', item.address).executeTakeFirstOrThrow();
  const target = { id: Number(box.id), address: box.address, owner_id: Number(box.owner_id), domain_id: Number(box.domain_id) };
  const rules: MailboxRules = {
    out_of_office: item.out_of_office ?? noRules.out_of_office,
    forwarding: item.forwarding ? { enabled: true, ...item.forwarding } : noRules.forwarding,
  };
  await trx
    .insertInto('mailbox_rule')
    .values({
      mailbox_id: target.id,
      out_of_office: rules.out_of_office.enabled ? 1 : 0,
      ooo_starts_at: rules.out_of_office.starts_at,
      ooo_ends_at: rules.out_of_office.ends_at,
      ooo_time_zone: rules.out_of_office.time_zone,
      ooo_subject: rules.out_of_office.subject,
      ooo_body: rules.out_of_office.body,
      ooo_interval_days: rules.out_of_office.interval_days,
      forwarding: rules.forwarding.enabled ? 1 : 0,
      forward_to: JSON.stringify(rules.forwarding.addresses),
      forward_keep_copy: rules.forwarding.keep_copy ? 1 : 0,
      updated_at: at,
      updated_by: who,
    })
    .execute();
  const script = sieveScript(rules, await ownAddressesOf(trx, target));
  if (script !== null) await trx.insertInto('mailbox_sieve').values({ mailbox_id: target.id, script_id: scriptIdOf(target.id, script), script, updated_at: at }).execute();
}

export { keysFor };
