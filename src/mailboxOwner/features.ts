/** The mailbox owners' area's pages, in menu order (after the overview). */
import EventBusyIcon from '@mui/icons-material/EventBusy';
import ForwardToInboxIcon from '@mui/icons-material/ForwardToInbox';
import KeyIcon from '@mui/icons-material/Key';
import PasswordIcon from '@mui/icons-material/Password';
import SettingsIcon from '@mui/icons-material/Settings';
import { createElement } from 'react';
import { AppPasswordsPage } from '../appPasswords/AppPasswordsPage';
import type { AreaPage } from '../area/features';
import { ForwardingPage, OutOfOfficePage, PasswordPage } from './pages';
import { MailboxSettingsPage } from './SettingsPage';
import { mailboxSecurityPage } from '../security';
import { signedInPage } from '../signedIn/SignedInPage';
import { ownSpamPage } from '../spam';
import { ownMailCopyPage } from '../mailCopy';

export const mailboxOwnerFeatures: readonly AreaPage[] = [
  { path: 'out-of-office', label: 'app.mail_area.menu.out_of_office', icon: EventBusyIcon, element: createElement(OutOfOfficePage) },
  { path: 'forwarding', label: 'app.mail_area.menu.forwarding', icon: ForwardToInboxIcon, element: createElement(ForwardingPage) },
  ownSpamPage,
  ownMailCopyPage,
  { path: 'app-passwords', label: 'app.mail_area.menu.app_passwords', icon: KeyIcon, element: createElement(AppPasswordsPage) },
  { path: 'password', label: 'app.mail_area.menu.password', icon: PasswordIcon, element: createElement(PasswordPage) },
  mailboxSecurityPage,
  signedInPage,
  { path: 'settings', label: 'app.mail_area.menu.settings', icon: SettingsIcon, element: createElement(MailboxSettingsPage) },
];
