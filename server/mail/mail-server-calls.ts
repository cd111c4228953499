/**
 * /api/manage/mail_server/settings: the mail server customers' domains point at (MAIL_HOSTNAME,
 * set in the environment), whether it can be their MX, and whether DNS knows its address.
 */
import { z } from 'zod';
import { staff } from '../../resources/define.js';
import type { Config } from '../config.js';
import { defineCall } from '../core/calls.js';
import { absent, mailServerNotice, resolverFor } from './dns-records.js';
import { mailHostnameProblem } from './mail-hostname.js';

/** The host's IPv4 and IPv6 addresses in DNS, looked up now: ok, missing (no address), or unchecked (no answer). */
async function addressesOf(hostname: string, config: Pick<Config, 'dnsServers'>) {
  const resolver = resolverFor(config);
  const answers = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
  const found = answers.flatMap((a) => (a.status === 'fulfilled' ? a.value : []));
  if (found.length) return { status: 'ok' as const, found };
  const failures = answers.map((a) => (a.status === 'rejected' ? String((a.reason as { code?: string }).code ?? 'error') : 'ENODATA'));
  return failures.every((code) => absent.has(code)) ? { status: 'missing' as const, found } : { status: 'unchecked' as const, found, error: failures.find((code) => !absent.has(code)) };
}

export const mailServerCalls = [
  defineCall({
    method: 'POST',
    path: '/api/manage/mail_server/settings',
    reads: true,
    auth: 'operator',
    tag: 'manage/mail_server',
    roles: staff,
    summary:
      'The mail server the customers’ domains point at (MX and SPF), as set in the environment: `hostname` (MAIL_HOSTNAME); `problem` why it cannot be published (ip, not_a_name) or null, with the `notice` the domains’ DNS view shows operators; `addresses`, its A and AAAA records looked up now (status ok / missing / unchecked); the ports mail programs are given.',
    input: z.object({}),
    async handler(_input, ctx) {
      const { config } = ctx.services;
      const hostname = config.mailHostname;
      const problem = mailHostnameProblem(hostname) ?? null;
      return {
        hostname,
        problem,
        notice: mailServerNotice(hostname, 'manage'),
        addresses: problem ? { status: 'unchecked' as const, found: [] } : await addressesOf(hostname, config),
        imap_port: config.mailImapPort,
        submission_port: config.mailSubmissionPort,
        submissions_port: config.mailSubmissionsPort,
      };
    },
  }),
];
