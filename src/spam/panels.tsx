/** Spam on a domain's and a mailbox's page (customer and operator areas), and the pages of the spam menu entries. */
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Button, Title, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { SectionCard } from '../area/SectionCard';
import { useAreaCall } from '../area/useAreaCall';
import { HeldMailboxes } from './HeldMailboxes';
import { SenderListCard } from './SenderListCard';
import { SpamSettingsCard } from './SpamSettingsCard';
import { useSpamSettings } from './spamApi';
import { submitCall } from '../area/formCall';

const SpamChart = lazy(() => import('./SpamChart'));
const cards = { p: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', '& > .MuiCard-root': { flex: '1 1 360px', mb: 0 } } as const;

export function DomainSpam() {
  const record = useRecordContext();
  const settings = useSpamSettings({ domain: record?.id });
  if (!record || !settings.data) return null;
  return (
    <>
      <Divider />
      <Box sx={cards} className="domain-spam">
        <SpamSettingsCard settings={settings.data} save={settings.save} inheritFrom="default" />
        <SenderListCard whose={{ domain: record.id as number }} />
        <Suspense fallback={null}>
          <SpamChart domainId={record.id as number} />
        </Suspense>
      </Box>
    </>
  );
}

export function MailboxSpam() {
  const record = useRecordContext();
  const settings = useSpamSettings({ mailbox: record?.id });
  if (!record || !settings.data) return null;
  return (
    <>
      <Divider />
      <Box sx={cards} className="mailbox-spam">
        <SpamSettingsCard settings={settings.data} save={settings.save} inheritFrom="domain" />
        <SenderListCard whose={{ mailbox: record.id as number }} domainId={record.domain_id as number} />
      </Box>
    </>
  );
}

/** The mailbox owner's own: their setting and their list. */
export function OwnSpamPage() {
  const settings = useSpamSettings({ own: true });
  return (
    <Box sx={{ mt: 2 }} className="own-spam-page">
      <Title title="app.spam.menu" />
      {settings.data && <SpamSettingsCard settings={settings.data} save={settings.save} inheritFrom="domain" />}
      <SenderListCard whose={{ own: true }} />
    </Box>
  );
}

/** The customer's held mailboxes. */
export function HeldMailboxesPage() {
  return (
    <Box sx={{ mt: 2 }} className="spam-held-page">
      <Title title="app.spam.held_title" />
      <HeldMailboxes />
    </Box>
  );
}

interface Defaults {
  filter: 'on' | 'off';
  junk_score: number;
  reject_score: number;
  hourly_floor: number;
  rate_factor: number;
}

function DefaultsCard() {
  const call = useAreaCall();
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { data } = useQuery({ queryKey: ['spam-defaults'], queryFn: () => call<Defaults>('GET', 'spam/defaults') });
  const [values, setValues] = useState<Defaults>();
  // The server's refusals, translated, under the field they name (junk must stay below reject).
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => setValues(data), [data]);
  if (!values) return null;
  const field = (name: keyof Defaults, step: number) => (
    <TextField
      size="small"
      type="number"
      label={translate(`app.spam.${name}`)}
      value={values[name]}
      onChange={(e) => setValues({ ...values, [name]: Number(e.target.value) })}
      inputProps={{ step }}
      error={Boolean(errors[name])}
      helperText={errors[name]}
      className={`spam-default-${name}`}
    />
  );
  const save = async () => {
    setErrors({});
    const refused = await submitCall(
      () => call('POST', 'spam/update_defaults', { ...values }),
      async () => {
        await queryClient.invalidateQueries({ queryKey: ['spam-defaults'] });
        notify('app.spam.saved', { type: 'success' });
      },
    );
    // A refusal without a field has been said by the WARNING alert.
    if (refused) setErrors(refused);
  };
  return (
    <SectionCard title="app.spam.defaults_title" className="spam-defaults">
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <TextField select size="small" label={translate('app.spam.filter')} value={values.filter} onChange={(e) => setValues({ ...values, filter: e.target.value as 'on' | 'off' })} error={Boolean(errors.filter)} helperText={errors.filter}>
          <MenuItem value="on">{translate('app.spam.on')}</MenuItem>
          <MenuItem value="off">{translate('app.spam.off')}</MenuItem>
        </TextField>
        {field('junk_score', 0.1)}
        {field('reject_score', 0.1)}
        {field('hourly_floor', 1)}
        {field('rate_factor', 1)}
      </Box>
      <Box sx={{ mt: 2 }}>
        <Button label="ra.action.save" variant="contained" onClick={save} />
      </Box>
    </SectionCard>
  );
}

/** The operators' spam page: the defaults and the held mailboxes. */
export function OperatorSpamPage() {
  return (
    <Box sx={{ mt: 2 }} className="operator-spam-page">
      <Title title="app.spam.menu" />
      <DefaultsCard />
      <HeldMailboxes />
    </Box>
  );
}
