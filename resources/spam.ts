import { z } from 'zod';
import { defineResource, idSchema, staff, supportStaff } from './define.js';

/**
 * Spam settings as every area reads and writes them. A mailbox's setting, else its domain's, else
 * the operators' default applies: off, or on with a junk score (delivered to Junk at or over it)
 * and a reject score (refused during the SMTP transaction at or over it). Scores have one decimal.
 */
export const SPAM_SCORE_MAX = 100;
export const spamFilters = ['inherit', 'on', 'off'] as const;
export type SpamFilterChoice = (typeof spamFilters)[number];

/** A score as people type it: 0.1 to 100, one decimal at most. */
export const spamScore = z.preprocess(
  (value) => (typeof value === 'string' && /^\d{1,3}(\.\d)?$/.test(value) ? Number(value) : value),
  z.number().min(0.1).max(SPAM_SCORE_MAX).refine((n) => Math.abs(n * 10 - Math.round(n * 10)) < 1e-9, 'validation.spam_score_decimals'),
);

export interface SpamSettings {
  /** inherit: as the domain (for a mailbox) or the operators' default (for a domain). */
  filter: SpamFilterChoice;
  junk_score: number | null;
  reject_score: number | null;
  /** What applies, and where it comes from. */
  effective: { filter: 'on' | 'off'; junk_score: number; reject_score: number; from: 'mailbox' | 'domain' | 'default' };
  updated_at: string | null;
  updated_by: string | null;
}

/** An address (anna@example.org) or a whole domain (example.org), as people type it. */
export const senderPattern = z.string().trim().toLowerCase().min(3).max(254);

/**
 * A sender a domain (all its mailboxes) or one mailbox allows or blocks: an address, or a whole
 * domain. Allowed: delivered to the inbox unscored, GTUBE included. Blocked: refused at SMTP. The
 * mailbox's list is read before its domain's, an address before its domain. A message to several
 * recipients is refused only if each of them refuses it, and each is treated as their own lists and
 * settings say: one who allows the sender never finds it in Junk (their spam script names the sender).
 */
export const spamList = defineResource({
  name: 'spam_list',
  table: 'spam_list',
  owner: 'owner_id',
  teamScope: 'domain_id',
  mailboxScope: 'mailbox_id',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    /** Required in the customers' and operators' areas; the mailbox's own in the mailbox owners'. */
    domain_id: { kind: 'reference', reference: 'domain', writable: 'create', list: true, filter: 'eq' },
    /** Empty: the whole domain's list. */
    mailbox_id: { kind: 'reference', reference: 'email', writable: 'create', list: true, filter: 'eq', schema: z.union([idSchema, z.null(), z.literal('')]).transform((v) => (v === '' ? null : v)) },
    sender: { kind: 'text', schema: senderPattern, required: true, writable: 'create', list: true, search: true },
    action: { kind: 'enum', choices: ['allow', 'block'], required: true, writable: 'create', list: true },
    owner_id: { kind: 'reference', reference: 'customer', writable: 'never', list: true, filter: 'eq' },
    created_at: { kind: 'datetime', writable: 'never', list: 'wide' },
  },
  admin: { listVia: 'query', list: 'team', get: 'team', create: 'team', delete: 'team' },
  manage: { listVia: 'query', list: staff, get: staff, create: supportStaff, delete: supportStaff },
  mail: {
    listVia: 'query',
    list: 'mailbox',
    create: 'mailbox',
    delete: 'mailbox',
    notes: { create: 'Allow or block a sender (an address, or a whole domain) for this mailbox only; its domain\'s list applies after it.' },
  },
});
