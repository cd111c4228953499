/**
 * /mail/settings: how to set up a mail program (the same settings a mailbox's page shows to the
 * customer), and whether mail programs must use app passwords instead of the main password.
 */
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { SectionCard } from '../area/SectionCard';
import { useAreaCall } from '../area/useAreaCall';
import { ClientSettingsContent, type ClientSettingsData } from '../mail/mailboxes/ClientSettings';
import { useMailbox, useRefreshMailbox } from './useMailbox';

function AppPasswordsOnly() {
  const translate = useTranslate();
  const call = useAreaCall();
  const notify = useNotify();
  const refresh = useRefreshMailbox();
  const { data: mailbox } = useMailbox();
  const [saving, setSaving] = useState(false);
  if (!mailbox) return null;
  const on = Boolean(mailbox.app_passwords_only);
  const change = async (next: boolean) => {
    setSaving(true);
    try {
      await call('POST', 'me/update_settings', { app_passwords_only: next });
      await refresh();
      notify(next ? 'app.mail_area.settings.only_on' : 'app.mail_area.settings.only_off', { type: 'success' });
    } catch {
      // The WARNING alert has said why.
    } finally {
      setSaving(false);
    }
  };
  return (
    <SectionCard title="app.mail_area.settings.only_title" className="app-passwords-only">
      <FormControlLabel
        control={<Switch checked={on} disabled={saving} onChange={(e) => change(e.target.checked)} name="app_passwords_only" />}
        label={translate('app.mail_area.settings.only_label')}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {translate('app.mail_area.settings.only_hint')} <Link to="/mail/app-passwords">{translate('app.mail_area.menu.app_passwords')}</Link>
      </Typography>
    </SectionCard>
  );
}

export function MailboxSettingsPage() {
  const call = useAreaCall();
  const { data: mailbox } = useMailbox();
  const { data } = useQuery({ queryKey: ['client-settings', 'own'], queryFn: () => call<ClientSettingsData>('GET', 'me/client_settings') });
  return (
    <Box sx={{ mt: 2 }} className="mailbox-settings-page">
      <Title title="app.mail_area.menu.settings" />
      <SectionCard title="app.client.title" className="client-settings">
        {data && <ClientSettingsContent data={data} passwordHint={mailbox?.app_passwords_only ? 'app.mail_area.settings.password_is_app_password' : 'app.client.password_hint'} />}
      </SectionCard>
      <AppPasswordsOnly />
    </Box>
  );
}
