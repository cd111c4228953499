/** The mailbox owners' pages that are one card each: password, out-of-office, forwarding. */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Title, useTranslate } from 'react-admin';
import { PasswordCard } from '../area/PasswordCard';
import { OwnForwarding, OwnOutOfOffice } from '../rules';

export function PasswordPage() {
  const translate = useTranslate();
  return (
    <Box sx={{ mt: 2 }} className="mailbox-password-page">
      <Title title="app.mail_area.menu.password" />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2, maxWidth: 640 }}>
        {translate('app.mail_area.password_intro')}
      </Typography>
      <PasswordCard path="me/update_password" />
    </Box>
  );
}

export function OutOfOfficePage() {
  return (
    <Box sx={{ mt: 2 }} className="out-of-office-page">
      <Title title="app.mail_area.menu.out_of_office" />
      <OwnOutOfOffice />
    </Box>
  );
}

export function ForwardingPage() {
  return (
    <Box sx={{ mt: 2 }} className="forwarding-page">
      <Title title="app.mail_area.menu.forwarding" />
      <OwnForwarding />
    </Box>
  );
}
