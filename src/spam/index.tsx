/**
 * Spam: settings and sender lists on a domain's and a mailbox's page, the owner's own page, the
 * sender lists as a resource of their own, held mailboxes (operators' dashboard, both areas' pages).
 */
import BlockIcon from '@mui/icons-material/Block';
import GppMaybeIcon from '@mui/icons-material/GppMaybe';
import ReportIcon from '@mui/icons-material/Report';
import { spamList } from '../../resources/spam';
import type { AreaPage } from '../area/features';
import type { ScreenFeature } from '../screens/screen';
import { HeldMailboxesPage, OperatorSpamPage, OwnSpamPage } from './panels';

export { DomainSpam, MailboxSpam } from './panels';
export { HeldMailboxes } from './HeldMailboxes';

export const spamLists: ScreenFeature = {
  declaration: spamList,
  icon: BlockIcon,
  extension: { columns: () => ['sender', 'action', 'domain_id', 'mailbox_id', 'created_at'] },
};
export const ownSpamPage: AreaPage = { path: 'spam', label: 'app.spam.menu', icon: ReportIcon, element: <OwnSpamPage /> };
export const heldMailboxesPage: AreaPage = { path: 'spam_held', label: 'app.spam.held_title', icon: GppMaybeIcon, element: <HeldMailboxesPage /> };
export const operatorSpamPage: AreaPage = { path: 'spam_held', label: 'app.spam.menu', icon: ReportIcon, element: <OperatorSpamPage /> };
