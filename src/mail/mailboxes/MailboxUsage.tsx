/** A mailbox's used bytes against its quota, and its message count. */
import { useRecordContext } from 'react-admin';
import { UsageBar } from '../../area/UsageBar';

export function MailboxUsage({ full }: { full?: boolean }) {
  const record = useRecordContext();
  if (!record) return null;
  return <UsageBar used={Number(record.used_bytes ?? 0)} total={Number(record.quota ?? 0)} width={full ? 360 : 180} />;
}
