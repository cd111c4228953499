/**
 * What an import creates, whatever it came from (a PostfixAdmin database, a CSV file): items in
 * the order they must be made (domains, alias domains, mailboxes, aliases, then mailbox rules),
 * and the report a dry run shows of them.
 */
import type { OutOfOffice } from '../mail/rules.js';

export type ImportItem =
  | { kind: 'domain'; name: string; owner_id: number; active: boolean; max_mailboxes: number; max_aliases: number; max_quota: number }
  | { kind: 'alias_domain'; alias: string; target: string; owner_id: number; active: boolean }
  /** `password`: a CSV row's clear password, hashed by the job before anything is made (password_hash is then ''). */
  | { kind: 'mailbox'; address: string; owner_id: number; name: string; password_hash: string; password?: string; quota: number; active: boolean }
  | { kind: 'alias'; address: string; owner_id: number; goto: string; active: boolean }
  /** The owner's out-of-office and forwarding, made only where the mailbox has no rules yet. */
  | { kind: 'rules'; address: string; owner_id: number; out_of_office?: OutOfOffice; forwarding?: { addresses: string[]; keep_copy: boolean } };

export type ItemKind = ImportItem['kind'];
export const itemKinds: ItemKind[] = ['domain', 'alias_domain', 'mailbox', 'alias', 'rules'];

/** Something of the source that is already here, or that cannot be made as it is. */
export interface Conflict {
  kind: ItemKind;
  /** The address or domain name. */
  name: string;
  reason: 'already_here' | 'other_customer' | 'alias_here' | 'mailbox_here' | 'held' | 'domain_of_other_customer' | 'domain_skipped';
  /** Line of a CSV file, when it came from one. */
  line?: number;
}

/** Something of the source this import does not carry, and why. */
export interface NotCarried {
  kind: string;
  name: string;
  reason: string;
}

export interface ImportReport {
  /** How many of each kind would be created. */
  create: Record<ItemKind, number>;
  conflicts: Conflict[];
  not_carried: NotCarried[];
  /** Customers whose mailbox quotas would exceed their storage capacity (bytes short). */
  /** Customers whose quotas would exceed their storage, with their address and name for the screen. */
  capacity: { customer_id: number; customer_email: string; customer_name: string; shortfall: number }[];
  /** Per source domain: where it goes and what it holds (PostfixAdmin). */
  domains?: { name: string; customer_id: number | null; action: 'create' | 'exists' | 'conflict' | 'skipped'; mailboxes: number; aliases: number }[];
  /** Weak hashes this import brings, by scheme. */
  schemes: Record<string, number>;
}

export const emptyCounts = (): Record<ItemKind, number> => ({ domain: 0, alias_domain: 0, mailbox: 0, alias: 0, rules: 0 });

/** The order items are made in: what an item needs exists before it. */
export const inOrder = (items: ImportItem[]) => itemKinds.flatMap((kind) => items.filter((item) => item.kind === kind));
