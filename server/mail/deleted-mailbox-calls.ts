/** Deleted mailboxes beyond their list: an operator restores one while its mail is still kept. */
import { deletedMailbox, restoreRoles } from '../../resources/deleted_mailbox.js';
import { pathOf } from '../../resources/define.js';
import { defineCall } from '../core/calls.js';
import { idInput } from '../core/resource-calls.js';
import { restoreDeletedMailbox } from './mailbox-deletion.js';

export const deletedMailboxCalls = [
  defineCall({
    method: 'POST',
    path: `/api/manage/${pathOf(deletedMailbox, 'manage')}/restore`,
    auth: 'operator',
    roles: restoreRoles,
    tag: `manage/${pathOf(deletedMailbox, 'manage')}`,
    summary:
      'Restore a deleted mailbox (state pending: within its grace period, before its mail is removed): the same mailbox comes back — id, address, password, name, quota — and receives and logs in at once; its purge job then does nothing. Refused (40900) when the domain is no longer the customer\'s, an alias now has the address, or the domain\'s limit or the customer\'s capacity does not allow it. Answers the mailbox.',
    input: idInput,
    handler: ({ id }, ctx) => restoreDeletedMailbox(ctx, id),
  }),
];
