/**
 * /manage/mail_server: what the panel sends mail with and what the customers' domains point at,
 * both set in its environment, shown with what to change; a test message of the outgoing mail.
 */
import DnsIcon from '@mui/icons-material/Dns';
import Box from '@mui/material/Box';
import { Title } from 'react-admin';
import type { AreaPage } from '../area/features';
import { MailServerCard } from '../mail';
import { OutgoingMailCard } from '../outbox/OutgoingMail';

function MailServerPage() {
  return (
    <Box sx={{ mt: 2 }} className="mail-server-page">
      <Title title="app.mail_setup.title" />
      <OutgoingMailCard />
      <MailServerCard />
    </Box>
  );
}

export const mailServerPage: AreaPage = { path: 'mail_server', label: 'app.mail_setup.title', icon: DnsIcon, element: <MailServerPage /> };
