/**
 * "Bring my mail": on a mailbox's page (customer and operator areas) the latest copies with their
 * progress, and a dialog that starts one; on a domain's page the same for all its mailboxes from
 * one old server; on the owner's own page the copies, read only.
 */
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Button, NumberInput, PasswordInput, required, SelectInput, TextInput, useCanAccess, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { CallDialog } from '../area/CallDialog';
import { SectionCard } from '../area/SectionCard';
import { CopyProgress } from './CopyProgress';
import { unfinished, useMailCopies, type MailCopy } from './mailCopyApi';

type Whose = { mailbox?: number; domain?: number };

function StartDialog({ whose, open, onClose, start }: { whose: Whose; open: boolean; onClose: () => void; start: (values: Record<string, unknown>) => Promise<unknown> }) {
  const notify = useNotify();
  const forDomain = whose.domain !== undefined;
  return (
    <CallDialog
      open={open}
      title="app.mail_copy.dialog_title"
      submitLabel={forDomain ? 'app.mail_copy.start_domain' : 'app.mail_copy.start'}
      className="mail-copy-dialog"
      onClose={onClose}
      call={({ source_port, ...values }) => start({ ...values, ...(source_port ? { source_port } : {}) })}
      onDone={(answer) => {
        onClose();
        const count = (answer as { list?: MailCopy[] }).list?.length;
        notify(forDomain ? 'app.mail_copy.started_domain' : 'app.mail_copy.started', { type: 'success', messageArgs: { smart_count: count ?? 1 } });
      }}
    >
      <TextInput source="source_host" label="app.mail_copy.host" helperText="app.mail_copy.host_hint" validate={required()} fullWidth autoComplete="off" />
      <SelectInput
        source="source_tls"
        label="app.mail_copy.tls"
        defaultValue="tls"
        choices={[
          { id: 'tls', name: 'app.mail_copy.tls_tls' },
          { id: 'starttls', name: 'app.mail_copy.tls_starttls' },
        ]}
        validate={required()}
        fullWidth
      />
      <NumberInput source="source_port" label="app.mail_copy.port" helperText="app.mail_copy.port_hint" min={1} max={65535} fullWidth />
      {forDomain ? (
        <TextInput source="user_pattern" label="app.mail_copy.user_pattern" helperText="app.mail_copy.user_pattern_hint" defaultValue="%e" validate={required()} fullWidth autoComplete="off" />
      ) : (
        <TextInput source="source_user" label="app.mail_copy.user" validate={required()} fullWidth autoComplete="off" />
      )}
      <PasswordInput source="password" label="app.mail_copy.password" helperText="app.mail_copy.password_hint" validate={required()} fullWidth autoComplete="new-password" />
    </CallDialog>
  );
}

export function MailCopyCard({ whose, canStart }: { whose: Whose; canStart: boolean }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const { data, start } = useMailCopies(whose);
  const forDomain = whose.domain !== undefined;
  const copies = data ?? [];
  // A domain's page: every unfinished copy and the latest finished ones; a mailbox's: the latest, then the earlier ones.
  const [latest, ...earlier] = copies;
  const busy = !forDomain && latest !== undefined && unfinished(latest);
  return (
    <SectionCard title={forDomain ? 'app.mail_copy.domain_title' : 'app.mail_copy.title'} className="mail-copy-card">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate(whose.mailbox === undefined && whose.domain === undefined ? 'app.mail_copy.owner_intro' : forDomain ? 'app.mail_copy.domain_intro' : 'app.mail_copy.intro')}
      </Typography>
      {data && copies.length === 0 && (
        <Typography variant="body2" sx={{ mb: 2 }} className="mail-copy-none">
          {translate('app.mail_copy.none')}
        </Typography>
      )}
      {forDomain ? copies.map((copy) => <CopyProgress key={copy.id} copy={copy} showAddress />) : latest && <CopyProgress copy={latest} />}
      {!forDomain && earlier.length > 0 && (
        <>
          <Divider sx={{ my: 1 }} />
          <Typography variant="subtitle2">{translate('app.mail_copy.earlier')}</Typography>
          {earlier.map((copy) => (
            <CopyProgress key={copy.id} copy={copy} />
          ))}
        </>
      )}
      {canStart && <Button label={forDomain ? 'app.mail_copy.start_domain' : 'app.mail_copy.start'} variant="contained" disabled={busy} onClick={() => setOpen(true)} className="mail-copy-start" />}
      {canStart && <StartDialog whose={whose} open={open} onClose={() => setOpen(false)} start={start} />}
    </SectionCard>
  );
}

/** On a mailbox's page: whoever may change the mailbox may bring its mail (a billing operator only looks). */
export function MailboxCopy() {
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource: 'email', action: 'update' });
  if (!record) return null;
  return <MailCopyCard whose={{ mailbox: Number(record.id) }} canStart={canAccess === true} />;
}

/** On a domain's page. */
export function DomainCopy() {
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource: 'email', action: 'create' });
  if (!record) return null;
  return <MailCopyCard whose={{ domain: Number(record.id) }} canStart={canAccess === true} />;
}
