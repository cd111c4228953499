/**
 * The calls that start copies, beside the derived list and get of mail_copy: for one mailbox
 * (customers and their team on their mailboxes, operators on any), and for a domain's mailboxes.
 * The mailbox or domain is found through the same scope as every other call (findVisible), so
 * another customer's is not found. The password goes in and never comes out.
 */
import type { z } from 'zod';
import { domain as domainResource } from '../../../resources/domain.js';
import type { Area } from '../../../resources/define.js';
import { mailbox as mailboxResource } from '../../../resources/mailbox.js';
import type { CallContext } from '../../core/calls.js';
import { fieldError } from '../../core/errors.js';
import type { OwnCall } from '../../core/resource-calls.js';
import { findVisible } from '../../core/scope.js';
import { copiesPerCallMax, domainCopyInput, mailboxCopyInput, startCopies, userOf, type CopyTarget } from './start-copy.js';

const targetOf = (row: Record<string, unknown>): CopyTarget => ({ id: Number(row.id), address: String(row.address), owner_id: Number(row.owner_id), domain_id: Number(row.domain_id) });

async function domainMailboxes(ctx: CallContext, domainId: number): Promise<CopyTarget[]> {
  const rows = await ctx.services.db.selectFrom('mailbox').select(['id', 'address', 'owner_id', 'domain_id']).where('domain_id', '=', domainId).where('active', '=', 1).orderBy('id').limit(100_000).execute();
  return rows.map(targetOf);
}

export const mailCopyCalls: Record<string, OwnCall> = {
  create: {
    summary:
      'Start copying the mail of an account on another IMAP server (source_host, source_port: default 993 with source_tls "tls", 143 with "starttls"; source_user, password) into a mailbox: every folder, with flags and dates, as a background job. Answers the copy; follow its progress with get (total_messages, done_messages, copied_messages, state). Run again later, it copies only what is new. The password is kept encrypted until the copy ends and never answered.',
    input: mailboxCopyInput,
    handler: async ({ mailbox_id, password, ...source }: z.output<typeof mailboxCopyInput>, ctx, area: Area) => {
      const mailbox = targetOf(await findVisible(mailboxResource, area, ctx, mailbox_id));
      const [copy] = await startCopies(ctx, [{ mailbox, ...source, password }]);
      return copy;
    },
  },
  create_for_domain: {
    access: 'create',
    summary:
      `Start one copy for each mailbox of a domain from one old server: either user_pattern (%e address, %u local part, %d domain; e.g. "%e*admin" with an old Dovecot\'s master user) and one password for every active mailbox, or accounts: [{mailbox_id, source_user, password}]. At most ${copiesPerCallMax} copies per call (a larger domain: accounts, in parts). Answers {list} of the copies made.`,
    input: domainCopyInput,
    handler: async (input: z.output<typeof domainCopyInput>, ctx, area: Area) => {
      const domain = await findVisible(domainResource, area, ctx, input.domain_id);
      const mailboxes = await domainMailboxes(ctx, Number(domain.id));
      const source = { source_host: input.source_host, source_port: input.source_port, source_tls: input.source_tls };
      let requests;
      if (input.accounts) {
        const byId = new Map(mailboxes.map((m) => [m.id, m]));
        requests = input.accounts.map((account, i) => {
          const mailbox = byId.get(account.mailbox_id);
          if (!mailbox) throw fieldError(`accounts.${i}.mailbox_id`, 'validation.mail_copy_not_of_domain');
          return { mailbox, ...source, source_user: account.source_user, password: account.password };
        });
      } else {
        if (mailboxes.length === 0) throw fieldError('domain_id', 'validation.mail_copy_no_mailboxes');
        if (mailboxes.length > copiesPerCallMax) throw fieldError('user_pattern', 'validation.mail_copy_too_many', { count: mailboxes.length, max: copiesPerCallMax, smart_count: copiesPerCallMax });
        requests = mailboxes.map((mailbox) => ({ mailbox, ...source, source_user: userOf(input.user_pattern!, mailbox.address), password: input.password! }));
      }
      return { list: await startCopies(ctx, requests) };
    },
  },
};
