/**
 * The outgoing mail as the panel runs with it (SMTP_URL and MAIL_FROM, from its environment),
 * and a test message through it whose fate (sent, or the SMTP server's error) is read back from
 * the send log, as the operator's first steps read it.
 */
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { email, Form, required, SaveButton, SelectInput, TextInput, useGetList, useLocaleState, useNotify, usePermissions, useTranslate, type RaRecord } from 'react-admin';
import { Link } from 'react-router-dom';
import { locales } from '../../resources/customer';
import { submitCall } from '../area/formCall';
import { inlineErrorsOnly } from '../area/forms';
import { SectionCard } from '../area/SectionCard';
import { useAreaCall } from '../area/useAreaCall';

interface OutgoingSettings {
  transport: 'smtp' | 'outbox';
  smtp_server: string | null;
  mail_from: string;
}

export interface TestMessage extends RaRecord {
  recipient: string;
  status: 'pending' | 'sent' | 'failed';
  transport: 'smtp' | 'outbox';
  error: string | null;
}

/** The newest test message in the send log, read again every second while it waits to be sent. */
export function useLastTestMessage() {
  const { data, isPending, refetch } = useGetList<TestMessage>(
    'email_send_log',
    { pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'DESC' }, filter: { template_key: 'test_message' } },
    { refetchInterval: (query) => (query.state.data?.data[0]?.status === 'pending' ? 1000 : false) },
  );
  return { last: data?.[0], isPending, refetch };
}

/** Through an SMTP server and sent: outgoing mail works. */
export const testMessageArrived = (last: TestMessage | undefined) => last?.status === 'sent' && last.transport === 'smtp';

/** What the newest test message says about the outgoing mail, as a text key and its params; nothing when there is none. */
export function testMessageOutcome(last: TestMessage | undefined): [string, Record<string, string>] | undefined {
  if (!last) return undefined;
  if (last.error && last.status !== 'sent') return ['app.mail_setup.test_failed', { to: last.recipient, error: last.error }];
  if (last.status === 'pending') return ['app.mail_setup.test_pending', { to: last.recipient }];
  if (last.transport === 'outbox') return ['app.mail_setup.test_outbox', { to: last.recipient }];
  return ['app.mail_setup.test_arrived', { to: last.recipient }];
}

function TestMessageForm({ onSent }: { onSent: () => void }) {
  const call = useAreaCall();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const send = ({ to, locale: language }: Record<string, unknown>) =>
    submitCall(
      () => call('POST', 'outbox/send_test', { to, locale: language }),
      () => {
        notify('app.mail_setup.test_queued', { type: 'info' });
        onSent();
      },
    );
  return (
    <Form {...inlineErrorsOnly} onSubmit={send} defaultValues={{ locale }} className="test-message-form">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1, alignItems: 'flex-start' }}>
        <TextInput source="to" type="email" label="app.mail_setup.test_to" validate={[required(), email()]} sx={{ flex: '1 1 220px' }} />
        <SelectInput source="locale" label="app.mail_setup.test_language" choices={locales.map((l) => ({ id: l, name: `app.enum.locale.${l}` }))} validate={required()} sx={{ width: 140 }} />
        <SaveButton label="app.mail_setup.test_send" icon={<SendIcon />} alwaysEnable className="test-message-send" sx={{ mt: 1 }} />
      </Box>
    </Form>
  );
}

export function OutgoingMailCard() {
  const call = useAreaCall();
  const translate = useTranslate();
  const { permissions } = usePermissions<{ role: string }>();
  const settings = useQuery({ queryKey: ['outbox', 'settings'], queryFn: () => call<OutgoingSettings>('POST', 'outbox/settings') });
  const { last, refetch } = useLastTestMessage();
  const outcome = testMessageOutcome(last);
  const data = settings.data;
  return (
    <SectionCard title="app.mail_setup.outgoing" className="outgoing-mail">
      {data && (
        <>
          <Alert severity={data.transport === 'smtp' ? 'info' : 'warning'} sx={{ mb: 1 }} className={`outgoing-${data.transport}`}>
            {data.transport === 'smtp' ? translate('app.mail_setup.outgoing_smtp', { server: data.smtp_server ?? '' }) : translate('app.mail_setup.outgoing_outbox')}
          </Alert>
          <Typography variant="body2">
            {translate('app.mail_setup.sender')}: <code>{data.mail_from}</code>
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {translate('app.mail_setup.how_to_change')}
          </Typography>
        </>
      )}
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        {translate('app.mail_setup.test_title')}
      </Typography>
      {permissions?.role === 'superadmin' ? (
        <TestMessageForm onSent={() => void refetch()} />
      ) : (
        <Typography variant="body2" color="text.secondary">
          {translate('app.mail_setup.test_superadmin_only')}
        </Typography>
      )}
      {outcome && (
        <Alert severity={testMessageArrived(last) ? 'success' : last?.status === 'pending' ? 'info' : 'warning'} sx={{ mt: 1 }} className={`test-outcome test-${last!.status}`}>
          {translate(...outcome)}
        </Alert>
      )}
      <Button component={Link} to="/manage/email_send_log" size="small" sx={{ mt: 1 }}>
        {translate('app.mail_setup.send_log')}
      </Button>
    </SectionCard>
  );
}
