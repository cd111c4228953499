/**
 * Starting copies: for one mailbox, or for many of a domain at once (one copy each). Each copy is
 * a row, its sealed password, and its first job, written in one transaction: no job without its
 * row, no row without its job. A mailbox has at most one unfinished copy.
 */
import { z } from 'zod';
import { idSchema } from '../../../resources/define.js';
import { mailCopyTls, sourceHost, sourcePassword, sourcePort, sourceUser } from '../../../resources/mail_copy.js';
import { actorForLog } from '../../core/actor.js';
import { audit } from '../../core/audit.js';
import type { CallContext } from '../../core/calls.js';
import { AppError, fieldError } from '../../core/errors.js';
import { now } from '../../core/time.js';
import { mailCopyJob, secretPurpose } from './copy-job.js';
import { seal } from './secret-box.js';
import { sourceAddress } from './source-address.js';

const sourceFields = {
  source_host: sourceHost,
  /** Default: 993 with tls, 143 with starttls. */
  source_port: sourcePort.optional(),
  source_tls: z.enum(mailCopyTls).default('tls'),
};

export const mailboxCopyInput = z.object({ mailbox_id: idSchema, ...sourceFields, source_user: sourceUser, password: sourcePassword });

/**
 * Copies one call may start. They wait in their own lane (at most a few of one customer's run at
 * once), but a thousand of them in one call is a thousand rows, sealed passwords and jobs at once.
 */
export const copiesPerCallMax = 100;

/** %e: the mailbox's address, %u: its local part, %d: its domain ("%e*admin" for an old Dovecot's master user). */
const userPattern = z.string().trim().min(2).max(254).regex(/%[eud]/, 'validation.mail_copy_user_pattern');

export const domainCopyInput = z
  .object({
    domain_id: idSchema,
    ...sourceFields,
    /** Every active mailbox of the domain, each logging in as the pattern says, with one password… */
    user_pattern: userPattern.optional(),
    password: sourcePassword.optional(),
    /** …or the mailboxes listed, each with its own login. */
    accounts: z.array(z.object({ mailbox_id: idSchema, source_user: sourceUser, password: sourcePassword })).min(1).max(copiesPerCallMax).optional(),
  })
  .superRefine((input, check) => {
    const byPattern = input.user_pattern !== undefined || input.password !== undefined;
    if (byPattern === (input.accounts !== undefined)) check.addIssue({ code: 'custom', path: ['accounts'], message: 'validation.mail_copy_pattern_or_accounts' });
    else if (byPattern && (input.user_pattern === undefined || input.password === undefined)) check.addIssue({ code: 'custom', path: [input.user_pattern === undefined ? 'user_pattern' : 'password'], message: 'validation.required' });
  });

export interface CopyTarget {
  id: number;
  address: string;
  owner_id: number;
  domain_id: number;
}

export interface CopyRequest {
  mailbox: CopyTarget;
  source_host: string;
  source_port?: number;
  source_tls: (typeof mailCopyTls)[number];
  source_user: string;
  password: string;
}

export const userOf = (pattern: string, address: string) => {
  const [local, domain] = [address.slice(0, address.lastIndexOf('@')), address.slice(address.lastIndexOf('@') + 1)];
  return pattern.replace(/%([eud])/g, (_m, k: string) => (k === 'e' ? address : k === 'u' ? local : domain));
};

const startedBy = (ctx: CallContext) => {
  const { actor_type, actor_name } = actorForLog(ctx.actor);
  return `${actor_type}:${actor_name}`;
};

export async function startCopies(ctx: CallContext, requests: CopyRequest[]) {
  const { db, config, jobs } = ctx.services;
  const key = config.secretKey;
  if (!config.mailCopy || !key) throw new AppError('conflict', 'error.mail_copy_not_set_up');
  if (new Set(requests.map((r) => r.mailbox.id)).size !== requests.length) throw fieldError('accounts', 'validation.mail_copy_mailbox_twice');
  // The old server must be on the internet (or in a range the operator allows): told now, and checked again by each run.
  for (const host of new Set(requests.map((r) => r.source_host))) {
    const checked = await sourceAddress(host, config.mailCopyAllowNetworks);
    if (!checked.ok) throw fieldError('source_host', checked.why === 'refused' ? 'validation.mail_copy_host_not_allowed' : 'validation.mail_copy_host_unknown');
  }
  const ids = await db.transaction().execute(async (trx) => {
    const running = await trx
      .selectFrom('mail_copy')
      .select('address')
      .where('mailbox_id', 'in', requests.map((r) => r.mailbox.id))
      .where('state', 'in', ['queued', 'running'])
      .limit(1)
      .executeTakeFirst();
    if (running) throw new AppError('conflict', 'error.mail_copy_running', { address: running.address });
    const made: number[] = [];
    for (const r of requests) {
      const at = now();
      const row = {
        owner_id: r.mailbox.owner_id,
        domain_id: r.mailbox.domain_id,
        mailbox_id: r.mailbox.id,
        address: r.mailbox.address,
        source_host: r.source_host,
        source_port: r.source_port ?? (r.source_tls === 'tls' ? 993 : 143),
        source_tls: r.source_tls,
        source_user: r.source_user,
        state: 'queued' as const,
        started_by: startedBy(ctx),
        created_at: at,
        updated_at: at,
      };
      const { id } = await trx.insertInto('mail_copy').values(row).returning('id').executeTakeFirstOrThrow();
      const copyId = Number(id);
      await trx.insertInto('mail_copy_secret').values({ copy_id: copyId, secret: seal(key, r.password, secretPurpose(copyId)) }).execute();
      await jobs.enqueue(trx, mailCopyJob, { copyId, owner: r.mailbox.owner_id }, { uniqueKey: `${copyId}:0` });
      await audit(trx, ctx, { action: 'mail_copy.create', targetType: 'mail_copy', targetId: copyId, userId: r.mailbox.owner_id, after: row });
      made.push(copyId);
    }
    return made;
  }).catch((error) => {
    // Two starts for one mailbox at the same moment: the unfinished-copy index lets one through.
    const e = error as { code?: string };
    if (e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE') throw new AppError('conflict', 'error.mail_copy_running', { address: requests[0].mailbox.address });
    throw error;
  });
  return db.selectFrom('mail_copy').selectAll().where('id', 'in', ids).orderBy('id').execute();
}
