/**
 * /mail/app-passwords: passwords for mail programs (IMAP, POP3, SMTP), each named after the
 * program or device that uses it, with when it was made and last used and from where. A new
 * one is shown once; revoking one stops it at that program's next login.
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, TextInput, Title, maxLength, required, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { CallDialog } from '../area/CallDialog';
import { SectionCard } from '../area/SectionCard';
import { useAreaCall } from '../area/useAreaCall';
import { confirm } from '../dialogs/store';
import { formatDateText } from '../screens/dates';
import { NewPasswordDialog, type CreatedAppPassword } from './NewPasswordDialog';

export interface AppPassword {
  id: number;
  name: string;
  created_at: string;
  created_ip: string | null;
  last_used_at: string | null;
  last_used_ip: string | null;
}

const KEY = ['app-passwords'];

function When({ at, ip, none }: { at: string | null; ip: string | null; none: string }) {
  const translate = useTranslate();
  const [raLocale] = useLocaleState();
  if (!at) return <Typography variant="body2" color="text.secondary">{translate(none)}</Typography>;
  return (
    <>
      <Typography variant="body2">{formatDateText(at, raLocale === 'en' ? 'en' : 'zh', true)}</Typography>
      {ip && (
        <Typography variant="caption" color="text.secondary" className="app-password-ip">
          {translate('app.app_passwords.from', { ip })}
        </Typography>
      )}
    </>
  );
}

function RevokeButton({ item }: { item: AppPassword }) {
  const call = useAreaCall();
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const revoke = async () => {
    if (!(await confirm(translate('app.app_passwords.revoke_confirm', { name: item.name }), 'DELETE'))) return;
    try {
      await call('POST', 'app_password/delete', { id: item.id });
      notify('app.app_passwords.revoked', { type: 'success', messageArgs: { name: item.name } });
      await queryClient.invalidateQueries({ queryKey: KEY });
    } catch {
      // The WARNING alert has said why.
    }
  };
  return (
    <Button label="app.app_passwords.revoke" onClick={revoke} color="error" className="app-password-revoke">
      <DeleteIcon />
    </Button>
  );
}

export function AppPasswordsPage() {
  const call = useAreaCall();
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedAppPassword>();
  const { data } = useQuery({ queryKey: KEY, queryFn: () => call<{ list: AppPassword[]; total: number }>('GET', 'app_password/list', { page_size: 100 }) });
  return (
    <Box sx={{ mt: 2 }} className="app-passwords-page">
      <Title title="app.mail_area.menu.app_passwords" />
      <SectionCard title="app.app_passwords.title">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('app.app_passwords.intro')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('app.app_passwords.only_hint')} <Link to="/mail/settings">{translate('app.mail_area.menu.settings')}</Link>
        </Typography>
        <Button label="app.app_passwords.create" onClick={() => setCreating(true)} variant="contained" className="app-password-create">
          <AddIcon />
        </Button>
        {data && data.list.length === 0 && (
          <Typography variant="body2" sx={{ mt: 2 }} className="app-passwords-empty">
            {translate('app.app_passwords.none')}
          </Typography>
        )}
        {data && data.list.length > 0 && (
          <Box sx={{ overflowX: 'auto', mt: 2 }}>
            <Table size="small" className="app-passwords-list">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('app.app_passwords.name')}</TableCell>
                  <TableCell>{translate('app.app_passwords.created_at')}</TableCell>
                  <TableCell>{translate('app.app_passwords.last_used')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {data.list.map((item) => (
                  <TableRow key={item.id} className="app-password-row">
                    <TableCell className="app-password-name">{item.name}</TableCell>
                    <TableCell>
                      <When at={item.created_at} ip={item.created_ip} none="app.app_passwords.never" />
                    </TableCell>
                    <TableCell>
                      <When at={item.last_used_at} ip={item.last_used_ip} none="app.app_passwords.never_used" />
                    </TableCell>
                    <TableCell align="right">
                      <RevokeButton item={item} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </SectionCard>
      <CallDialog<CreatedAppPassword>
        open={creating}
        title="app.app_passwords.create"
        submitLabel="app.app_passwords.make"
        className="app-password-create-dialog"
        onClose={() => setCreating(false)}
        call={({ name }) => call<CreatedAppPassword>('POST', 'app_password/create', { name: String(name ?? '').trim() })}
        onDone={(answer) => {
          setCreating(false);
          setCreated(answer);
          void queryClient.invalidateQueries({ queryKey: KEY });
        }}
      >
        <Typography variant="body2" color="text.secondary">
          {translate('app.app_passwords.name_hint')}
        </Typography>
        <TextInput source="name" label="app.app_passwords.name" validate={[required(), maxLength(64)]} fullWidth autoFocus />
      </CallDialog>
      <NewPasswordDialog created={created} onClose={() => setCreated(undefined)} />
    </Box>
  );
}
