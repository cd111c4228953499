/**
 * Mailboxes (`email`): usage against quota in lists, and the customer's password and delivery-check
 * buttons; on a mailbox's page its out-of-office reply, forwarding and app passwords.
 */
import MailIcon from '@mui/icons-material/Mail';
import { mailbox } from '../../../resources/mailbox';
import type { FieldInputProps, ScreenExtension, ScreenFeature } from '../../screens/screen';
import { ChangePasswordButton, DeliveryCheckButton } from './MailboxActions';
import { MailboxUsage } from './MailboxUsage';
import { MailboxPanel } from './MailboxPanel';
import { ClientSettings } from './ClientSettings';
import { RecentlyDeletedLink } from '../deletedMailboxes';
import { MailboxRules } from '../../rules';
import { MailboxSpam } from '../../spam';
import { MailboxCopy } from '../../mailCopy';
import { FlagInput } from '../../screens/FlagInput';

/** Says what the switch changes: the main password no longer works in mail programs. */
const AppPasswordsOnlyInput = (props: FieldInputProps) => <FlagInput {...props} helperText="app.mailbox_owner.app_passwords_only_hint" />;

const mailboxScreens: ScreenExtension = {
  representation: 'address_unicode',
  columns: (area) => ['address_unicode', 'name', 'used_bytes', 'used_messages', 'active', 'delivery_checked_at', ...(area === 'manage' ? ['owner_id', 'store_id'] : []), 'created_at'],
  views: { used_bytes: MailboxUsage },
  inputs: { app_passwords_only: AppPasswordsOnlyInput },
  // The mail is kept for a while, restorable by operators.
  deleteConfirm: 'app.mailbox.delete_confirm',
  listTop: ({ screen }) => (screen.area === 'manage' ? <RecentlyDeletedLink /> : null),
  // Operators reach recently deleted mailboxes from here also when none is left.
  keepEmptyList: (area) => area === 'manage',
  // The customer changes a password through update_password (its own button); operators in the form.
  hiddenInputs: (area, mode) => (area === 'admin' && mode === 'update' ? ['password'] : []),
  updatePanel: ({ screen }) => (
    <>
      <MailboxPanel />
      <MailboxRules />
      <MailboxSpam />
      <MailboxCopy />
      <ClientSettings screen={screen} />
    </>
  ),
  // A new mailbox opens on its page, which lists the mail-program settings.
  afterCreate: (resource, id) => `/${resource}/update?id=${encodeURIComponent(String(id))}`,
  updateActions: ({ screen }) =>
    screen.area === 'admin' ? (
      <>
        <ChangePasswordButton />
        <DeliveryCheckButton />
      </>
    ) : null,
};

export const mailboxes: ScreenFeature = { declaration: mailbox, extension: mailboxScreens, icon: MailIcon };
