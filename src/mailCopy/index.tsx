/** Bringing the mail: the card on a mailbox's and a domain's page, and the owner's own page. */
import MoveToInboxIcon from '@mui/icons-material/MoveToInbox';
import Box from '@mui/material/Box';
import { Title } from 'react-admin';
import type { AreaPage } from '../area/features';
import { MailCopyCard } from './MailCopyCard';

export { DomainCopy, MailboxCopy } from './MailCopyCard';

function OwnMailCopyPage() {
  return (
    <Box sx={{ mt: 2 }} className="own-mail-copy-page">
      <Title title="app.mail_copy.title" />
      <MailCopyCard whose={{}} canStart={false} />
    </Box>
  );
}

export const ownMailCopyPage: AreaPage = { path: 'mail-copy', label: 'app.mail_copy.title', icon: MoveToInboxIcon, element: <OwnMailCopyPage /> };
