/** Mailbox rules: out-of-office and forwarding, on the owner's own pages and on a mailbox's page of the customer and operator areas. */
import { ForwardingCard } from './ForwardingCard';
import { OutOfOfficeCard } from './OutOfOfficeCard';
import { useRules } from './rulesApi';

export { MailboxRules } from './MailboxRules';

/** The owner's own out-of-office reply. */
export function OwnOutOfOffice() {
  const { data, saveOutOfOffice } = useRules({ own: true });
  return data ? <OutOfOfficeCard rules={data} save={saveOutOfOffice} /> : null;
}

/** The owner's own forwarding. */
export function OwnForwarding() {
  const { data, saveForwarding } = useRules({ own: true });
  return data ? <ForwardingCard rules={data} save={saveForwarding} /> : null;
}
