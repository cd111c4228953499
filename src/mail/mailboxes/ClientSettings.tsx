/**
 * A mailbox's mail-program settings: IMAP and SMTP host, port and security, the user name,
 * each copyable; an Apple configuration profile to download (customer area). Opening it
 * completes the last of the first steps. The mailbox owners' area shows the same settings.
 */
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Button, useRecordContext, useTranslate } from 'react-admin';
import { useAreaCall } from '../../area/useAreaCall';
import { Copyable } from '../domains/DnsRecords';
import { markClientSettingsSeen } from './clientSettingsSeen';
import type { Screen } from '../../screens/screen';

interface ServerSetting {
  protocol: 'imap' | 'smtp';
  host: string;
  port: number;
  security: 'ssl' | 'starttls';
}

export interface ClientSettingsData {
  address: string;
  username: string;
  incoming: ServerSetting[];
  outgoing: ServerSetting[];
  in_service: boolean;
}

function ServerRows({ title, servers, username, passwordHint }: { title: string; servers: ServerSetting[]; username: string; passwordHint: string }) {
  const translate = useTranslate();
  const row = (label: string, value: string, className: string) => (
    <>
      <Typography variant="body2" color="text.secondary">
        {translate(label)}
      </Typography>
      <Copyable text={value} className={className} />
    </>
  );
  return (
    <Box sx={{ mb: 2 }} className={`client-${servers[0]?.protocol}`}>
      <Typography variant="subtitle2" gutterBottom>
        {translate(title)}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', columnGap: 2, rowGap: 0.5, alignItems: 'center', maxWidth: 520 }}>
        {row('app.client.server', servers[0]?.host ?? '', 'client-host')}
        {row('app.client.port', servers.map((s) => s.port).join(' / '), 'client-port')}
        {row('app.client.security', servers.map((s) => translate(`app.client.${s.security}`)).join(' / '), 'client-security')}
        {row('app.client.username', username, 'client-username')}
        <Typography variant="body2" color="text.secondary">
          {translate('app.client.password')}
        </Typography>
        <Typography variant="body2">{translate(passwordHint)}</Typography>
      </Box>
    </Box>
  );
}

/**
 * The settings themselves, as a mailbox's page (customers, operators) and the owner's own page
 * show them; `passwordHint` says which password the program takes, `download` the Apple profile.
 */
export function ClientSettingsContent({ data, passwordHint = 'app.client.password_hint', download }: { data: ClientSettingsData; passwordHint?: string; download?: () => Promise<void> }) {
  const translate = useTranslate();
  return (
    <>
      {!data.in_service && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {translate('app.client.not_in_service')}
        </Alert>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('app.client.intro')}
      </Typography>
      <ServerRows title="app.client.incoming" servers={data.incoming} username={data.username} passwordHint={passwordHint} />
      <ServerRows title="app.client.outgoing" servers={data.outgoing} username={data.username} passwordHint={passwordHint} />
      {download && (
        <Box>
          <Button label="app.client.apple_profile" onClick={download} variant="outlined" className="apple-profile">
            <DownloadIcon />
          </Button>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
            {translate('app.client.apple_hint')}
          </Typography>
        </Box>
      )}
    </>
  );
}

export function ClientSettings({ screen }: { screen: Screen }) {
  const record = useRecordContext();
  const call = useAreaCall();
  const translate = useTranslate();
  const id = record?.id;
  const { data } = useQuery({ queryKey: ['client-settings', id], queryFn: () => call<ClientSettingsData>('GET', 'email/client_settings', { id }), enabled: id !== undefined });
  useEffect(() => {
    if (data && screen.area === 'admin') markClientSettingsSeen();
  }, [data, screen.area]);
  if (!record || !data) return null;
  const download = async () => {
    const profile = await call<{ filename: string; content: string; content_type: string }>('GET', 'email/apple_profile', { id });
    const url = URL.createObjectURL(new Blob([profile.content], { type: profile.content_type }));
    const link = document.createElement('a');
    link.href = url;
    link.download = profile.filename;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <>
      <Divider />
      <Box sx={{ p: 2 }} id="client-settings" className="client-settings">
        <Typography variant="h6" gutterBottom>
          {translate('app.client.title')}
        </Typography>
        <ClientSettingsContent
          data={data}
          passwordHint={record.app_passwords_only ? 'app.mail_area.settings.password_is_app_password' : 'app.client.password_hint'}
          download={screen.area === 'admin' ? download : undefined}
        />
      </Box>
    </>
  );
}
