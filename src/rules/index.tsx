/** Mailbox rules: out-of-office and forwarding, on the owner's own pages and on a mailbox's page of the customer and operator areas. */
import { OutOfOfficeCard } from './OutOfOfficeCard';
import { ForwardingCard } from './ForwardingCard';
import { useRules } from './rulesApi';

/** The owner's out-of-office page, or with an id a mailbox's card. */
export function OutOfOffice({ mailboxId }: { mailboxId?: number | string }) {
  const { data, saveOutOfOffice } = useRules(mailboxId);
  return data ? <OutOfOfficeCard rules={data} save={saveOutOfOffice} /> : null;
}

export function Forwarding({ mailboxId }: { mailboxId?: number | string }) {
  const { data, saveForwarding } = useRules(mailboxId);
  return data ? <ForwardingCard rules={data} save={saveForwarding} /> : null;
}
