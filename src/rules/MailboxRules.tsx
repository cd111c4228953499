/**
 * Under a mailbox's form in the customer and operator areas: its out-of-office reply and its
 * forwarding, each its own card and call (email/update_out_of_office, email/update_forwarding),
 * the same cards the owner sees on their own pages; the log says who changed them.
 */
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import { useRecordContext } from 'react-admin';
import { ForwardingCard } from './ForwardingCard';
import { OutOfOfficeCard } from './OutOfOfficeCard';
import { useRules } from './rulesApi';

export function MailboxRules() {
  const record = useRecordContext();
  const { data, saveOutOfOffice, saveForwarding } = useRules({ id: record?.id });
  if (!record || !data) return null;
  return (
    <>
      <Divider />
      <Box sx={{ p: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', '& > .MuiCard-root': { flex: '1 1 360px', mb: 0 } }} className="mailbox-rules">
        <OutOfOfficeCard rules={data} save={saveOutOfOffice} />
        <ForwardingCard rules={data} save={saveForwarding} />
      </Box>
    </>
  );
}
