/**
 * The two-step sign-in page of every area (/admin/security, /manage/security, /mail/security):
 * the person's authenticator app (set up, turn off, new recovery codes) and passkeys (add,
 * remove), and, where the area has one, who must have a second factor (`policy`).
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Button, TextInput, Title, maxLength, required, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { CallDialog } from '../area/CallDialog';
import { SectionCard } from '../area/SectionCard';
import { useAreaCall } from '../area/useAreaCall';
import { confirm } from '../dialogs/store';
import { formatDateTime } from '../screens/shownDates';
import { ConfirmationInput, confirmationOf } from './ConfirmationInput';
import { addPasskey } from './passkeys';
import { RecoveryCodes, TotpQr } from './RecoveryCodes';

interface SecondFactors {
  totp: boolean;
  recovery_codes_left: number;
  passkeys: { id: number; name: string; created_at: string; last_used_at: string | null }[];
  required: boolean;
}

export const SECOND_FACTORS = ['second-factors'];

export function SecurityPage({ policy }: { policy?: ReactNode }) {
  const call = useAreaCall();
  const translate = useTranslate();
  const { data } = useQuery({ queryKey: SECOND_FACTORS, queryFn: () => call<SecondFactors>('GET', 'second_factor/info') });
  return (
    <Box sx={{ mt: 2 }} className="security-page">
      <Title title="app.second_factor.menu" />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2, maxWidth: 640 }}>
        {translate('app.second_factor.page_intro')}
      </Typography>
      {data?.required && !data.totp && data.passkeys.length === 0 && (
        <Alert severity="warning" sx={{ mb: 2, maxWidth: 640 }}>
          {translate('app.second_factor.required')}
        </Alert>
      )}
      {data && <TotpCard info={data} />}
      {data && <PasskeysCard info={data} />}
      {policy}
    </Box>
  );
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: SECOND_FACTORS });
}

function TotpCard({ info }: { info: SecondFactors }) {
  const call = useAreaCall();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [settingUp, setSettingUp] = useState(false);
  const [codes, setCodes] = useState<string[]>();
  // Turning off and new codes each ask for the password (or a current code) in their dialog.
  const [asking, setAsking] = useState<'turn_off' | 'renew'>();
  return (
    <SectionCard title="app.second_factor.totp_title" className="totp-card">
      <Typography variant="body1" sx={{ mb: 2 }} className="totp-status">
        {info.totp ? translate('app.second_factor.totp_on', { smart_count: info.recovery_codes_left }) : translate('app.second_factor.totp_off')}
      </Typography>
      <Stack direction="row" spacing={1}>
        {!info.totp && <Button label="app.second_factor.totp_set_up" variant="contained" onClick={() => setSettingUp(true)} className="totp-set-up" />}
        {info.totp && <Button label="app.second_factor.new_recovery_codes" variant="outlined" onClick={() => setAsking('renew')} className="totp-renew-codes" />}
        {info.totp && <Button label="app.second_factor.totp_turn_off" color="error" onClick={() => setAsking('turn_off')} className="totp-turn-off" />}
      </Stack>
      <CallDialog
        open={asking === 'turn_off'}
        title="app.second_factor.totp_turn_off"
        submitLabel="app.second_factor.totp_turn_off"
        className="totp-turn-off-dialog"
        onClose={() => setAsking(undefined)}
        call={(values) => call('POST', 'second_factor/totp_disable', { confirmation: confirmationOf(values) })}
        onDone={() => {
          setAsking(undefined);
          notify('app.second_factor.totp_turned_off', { type: 'success' });
          void refresh();
        }}
      >
        <Typography variant="body2" sx={{ mb: 1 }}>
          {translate('app.second_factor.totp_turn_off_confirm')}
        </Typography>
        <ConfirmationInput />
      </CallDialog>
      <CallDialog<{ recovery_codes: string[] }>
        open={asking === 'renew'}
        title="app.second_factor.new_recovery_codes"
        submitLabel="app.second_factor.new_recovery_codes"
        className="totp-renew-codes-dialog"
        onClose={() => setAsking(undefined)}
        call={(values) => call('POST', 'second_factor/recovery_codes', { confirmation: confirmationOf(values) })}
        onDone={(answer) => {
          setAsking(undefined);
          setCodes(answer.recovery_codes);
          void refresh();
        }}
      >
        <Typography variant="body2" sx={{ mb: 1 }}>
          {translate('app.second_factor.new_recovery_codes_confirm')}
        </Typography>
        <ConfirmationInput />
      </CallDialog>
      {settingUp && (
        <TotpSetupDialog
          onClose={() => setSettingUp(false)}
          onDone={(recoveryCodes) => {
            setSettingUp(false);
            setCodes(recoveryCodes);
            void refresh();
          }}
        />
      )}
      <RecoveryCodesDialog codes={codes} onClose={() => setCodes(undefined)} />
    </SectionCard>
  );
}

function TotpSetupDialog({ onClose, onDone }: { onClose: () => void; onDone: (recoveryCodes: string[]) => void }) {
  const call = useAreaCall();
  const translate = useTranslate();
  // A new secret each time the dialog opens; it is shown only here.
  const { data } = useQuery({ queryKey: ['totp-start'], queryFn: () => call<{ secret: string; otpauth_url: string; qr_svg: string }>('POST', 'second_factor/totp_start', {}), gcTime: 0, staleTime: Infinity });
  return (
    <CallDialog<{ recovery_codes: string[] }>
      open
      title="app.second_factor.enrol_title"
      submitLabel="app.second_factor.confirm"
      className="totp-setup-dialog"
      onClose={onClose}
      call={({ code }) => call('POST', 'second_factor/totp_confirm', { code: String(code ?? '').trim() })}
      onDone={(answer) => onDone(answer.recovery_codes)}
    >
      <Typography variant="body2" color="text.secondary">
        {translate('app.second_factor.setup_intro')}
      </Typography>
      {data && (
        <>
          <TotpQr svg={data.qr_svg} alt={data.otpauth_url} />
          <Typography variant="body2" sx={{ mb: 1 }}>
            {translate('app.second_factor.secret')}: <code className="totp-secret">{data.secret}</code>
          </Typography>
        </>
      )}
      <TextInput source="code" label="app.second_factor.totp_code" validate={required()} fullWidth autoFocus autoComplete="one-time-code" />
    </CallDialog>
  );
}

function RecoveryCodesDialog({ codes, onClose }: { codes?: string[]; onClose: () => void }) {
  const translate = useTranslate();
  return (
    <Dialog open={Boolean(codes)} onClose={onClose} fullWidth maxWidth="xs" className="recovery-codes-dialog">
      <DialogTitle>{translate('app.second_factor.recovery_title')}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 1 }}>
          {translate('app.second_factor.recovery_intro')}
        </Alert>
        {codes && <RecoveryCodes codes={codes} copyLabel={translate('app.second_factor.copy')} copiedLabel={translate('app.second_factor.copied')} />}
      </DialogContent>
      <DialogActions>
        <Button label="app.second_factor.continue" variant="contained" onClick={onClose} className="recovery-codes-done" />
      </DialogActions>
    </Dialog>
  );
}

function PasskeysCard({ info }: { info: SecondFactors }) {
  const call = useAreaCall();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [raLocale] = useLocaleState();
  const [adding, setAdding] = useState(false);
  const remove = async (passkey: SecondFactors['passkeys'][number]) => {
    if (!(await confirm(translate('app.second_factor.passkey_remove_confirm', { name: passkey.name }), 'DELETE'))) return;
    try {
      await call('POST', 'second_factor/passkey_delete', { id: passkey.id });
    } catch {
      return; // The alert has said why (the last one under a policy, say).
    }
    notify('app.second_factor.passkey_removed', { type: 'success', messageArgs: { name: passkey.name } });
    void refresh();
  };
  const when = (at: string | null) => (at ? formatDateTime(at, raLocale === 'en' ? 'en' : 'zh') : translate('app.second_factor.never_used'));
  return (
    <SectionCard title="app.second_factor.passkeys_title" className="passkeys-card">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('app.second_factor.passkeys_intro')}
      </Typography>
      <Button label="app.second_factor.passkey_add" variant="contained" onClick={() => setAdding(true)} className="passkey-add">
        <AddIcon />
      </Button>
      {info.passkeys.length === 0 ? (
        <Typography variant="body2" sx={{ mt: 2 }} className="passkeys-empty">
          {translate('app.second_factor.passkeys_none')}
        </Typography>
      ) : (
        <Table size="small" sx={{ mt: 2 }} className="passkeys-list">
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.second_factor.passkey_name')}</TableCell>
              <TableCell>{translate('app.second_factor.created_at')}</TableCell>
              <TableCell>{translate('app.second_factor.last_used_at')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {info.passkeys.map((passkey) => (
              <TableRow key={passkey.id} className="passkey-row">
                <TableCell className="passkey-name">{passkey.name}</TableCell>
                <TableCell>{when(passkey.created_at)}</TableCell>
                <TableCell>{when(passkey.last_used_at)}</TableCell>
                <TableCell align="right">
                  <Button label="app.second_factor.passkey_remove" color="error" onClick={() => remove(passkey)} className="passkey-remove">
                    <DeleteIcon />
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <CallDialog<{ id: number; name: string } | undefined>
        open={adding}
        title="app.second_factor.passkey_add"
        submitLabel="app.second_factor.passkey_add"
        className="passkey-add-dialog"
        onClose={() => setAdding(false)}
        call={({ name }) => addPasskey(call, String(name ?? '').trim())}
        onDone={(added) => {
          if (!added) return;
          setAdding(false);
          notify('app.second_factor.passkey_added', { type: 'success', messageArgs: { name: added.name } });
          void refresh();
        }}
      >
        <Typography variant="body2" color="text.secondary">
          {translate('app.second_factor.passkey_name_hint')}
        </Typography>
        <TextInput source="name" label="app.second_factor.passkey_name" validate={[required(), maxLength(64)]} fullWidth autoFocus />
      </CallDialog>
    </SectionCard>
  );
}
