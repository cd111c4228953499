/**
 * /api/manage/job/*: the operators' view of the job machinery (services.jobs). Every
 * operator sees counts, jobs, errors and payloads with their secrets masked; only a
 * superadmin retries or discards a job, and each such change is in the audit log.
 */
import { z } from 'zod';
import { jobIdSchema, staff, superadminOnly, wholeNumber } from '../../resources/define.js';
import { audit } from '../core/audit.js';
import { defineCall } from '../core/calls.js';
import { AppError, notFound } from '../core/errors.js';

const jobId = z.object({ id: jobIdSchema });
const states = ['queued', 'active', 'done', 'failed'] as const;

export const jobCalls = [
  defineCall({
    method: 'POST',
    path: '/api/manage/job/summary',
    reads: true,
    auth: 'operator',
    tag: 'manage/job',
    roles: staff,
    summary: 'Per job name: how many are queued, running and failed, and how many were done in the last 24 hours.',
    input: z.object({}),
    handler: (_input, ctx) => ctx.services.jobs.counts(),
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/job/list',
    reads: true,
    auth: 'operator',
    tag: 'manage/job',
    roles: staff,
    summary: 'Jobs, newest first; filter by name and state (queued, active, done, failed). Payloads come with secrets (codes, passwords, tokens) masked.',
    input: z.object({
      page: wholeNumber(1, 1_000_000).default(1),
      page_size: wholeNumber(1, 100).default(20),
      filter: z
        .object({ name: z.string().trim().max(100).optional(), state: z.enum(states).optional() })
        .strict()
        .default({}),
    }),
    async handler({ page, page_size, filter }, ctx) {
      const { list, total } = await ctx.services.jobs.list({ name: filter.name, state: filter.state, page, pageSize: page_size });
      return { list, total, page, page_size };
    },
  }),
  defineCall({
    method: 'GET',
    path: '/api/manage/job/get',
    auth: 'operator',
    tag: 'manage/job',
    roles: staff,
    summary: 'One job: state, attempts, last error and payload (secrets masked).',
    input: jobId,
    async handler({ id }, ctx) {
      return (await ctx.services.jobs.get(id)) ?? Promise.reject(notFound());
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/job/retry',
    auth: 'operator',
    tag: 'manage/job',
    roles: superadminOnly,
    summary: 'Give a failed job one more try, now. Only failed jobs can be retried (40900 otherwise).',
    input: jobId,
    async handler({ id }, ctx) {
      const job = await ctx.services.jobs.get(id);
      if (!job) throw notFound();
      if (!(await ctx.services.jobs.retry(id))) throw new AppError('conflict', 'error.job_not_failed');
      await audit(ctx.services.db, ctx, { action: 'retry', targetType: 'job', after: { id, name: job.name } });
      return ctx.services.jobs.get(id);
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/job/discard',
    auth: 'operator',
    tag: 'manage/job',
    roles: superadminOnly,
    summary: 'Remove a failed or queued job; it will not run. A running or done job cannot be discarded (40900).',
    input: jobId,
    async handler({ id }, ctx) {
      const job = await ctx.services.jobs.get(id);
      if (!job) throw notFound();
      if (!(await ctx.services.jobs.discard(id))) throw new AppError('conflict', 'error.job_not_discardable');
      await audit(ctx.services.db, ctx, { action: 'discard', targetType: 'job', after: { id, name: job.name } });
      return { id };
    },
  }),
];
