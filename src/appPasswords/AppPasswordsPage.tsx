/**
 * /mail/app-passwords: passwords for mail programs (IMAP, POP3, SMTP), each named after the
 * program or device that uses it, with when it was made and last used and from where. A new
 * one is shown once; revoking one stops it at that program's next login.
 */
import Typography from '@mui/material/Typography';
import { TextInput, maxLength, required, useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { useAreaCall } from '../area/useAreaCall';
import { formatDateTime } from '../screens/shownDates';
import type { SecretKind } from '../secrets/kind';
import { SecretsPage, type SecretColumn } from '../secrets/SecretsPage';

export interface AppPassword {
  id: number;
  name: string;
  created_at: string;
  created_ip: string | null;
  last_used_at: string | null;
  last_used_ip: string | null;
}

export interface CreatedAppPassword {
  id: number;
  name: string;
  password: string;
  created_at: string;
}

const appPasswords: SecretKind = { texts: 'app_passwords', name: 'app-password', resource: 'app_password' };

function When({ at, ip, none }: { at: string | null; ip: string | null; none: string }) {
  const translate = useTranslate();
  const [raLocale] = useLocaleState();
  if (!at) return <Typography variant="body2" color="text.secondary">{translate(none)}</Typography>;
  return (
    <>
      <Typography variant="body2">{formatDateTime(at, raLocale === 'en' ? 'en' : 'zh')}</Typography>
      {ip && (
        <Typography variant="caption" color="text.secondary" className="app-password-ip">
          {translate('app.app_passwords.from', { ip })}
        </Typography>
      )}
    </>
  );
}

const columns: SecretColumn<AppPassword>[] = [
  { label: 'app.app_passwords.name', className: 'app-password-name', cell: (item) => item.name },
  { label: 'app.app_passwords.created_at', cell: (item) => <When at={item.created_at} ip={item.created_ip} none="app.app_passwords.never" /> },
  { label: 'app.app_passwords.last_used', cell: (item) => <When at={item.last_used_at} ip={item.last_used_ip} none="app.app_passwords.never_used" /> },
];

export function AppPasswordsPage() {
  const call = useAreaCall();
  const translate = useTranslate();
  return (
    <SecretsPage<AppPassword, CreatedAppPassword>
      kind={appPasswords}
      title="app.mail_area.menu.app_passwords"
      intro={
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('app.app_passwords.intro')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('app.app_passwords.only_hint')} <Link to="/mail/settings">{translate('app.mail_area.menu.settings')}</Link>
          </Typography>
        </>
      }
      columns={columns}
      form={
        <>
          <Typography variant="body2" color="text.secondary">
            {translate('app.app_passwords.name_hint')}
          </Typography>
          <TextInput source="name" label="app.app_passwords.name" validate={[required(), maxLength(64)]} fullWidth autoFocus />
        </>
      }
      create={({ name }) => call<CreatedAppPassword>('POST', 'app_password/create', { name: String(name ?? '').trim() })}
      secretOf={(made) => made.password}
      // Typed into a phone's mail settings as often as pasted.
      shown={{ look: 'typed', maxWidth: 'xs' }}
    />
  );
}
