/**
 * A new customer's first steps on the dashboard, until all are done: verify a domain → get
 * storage → create a mailbox → set up the mail program. Each step says whether it is done
 * (read from the account's own records) and links to where it is done.
 */
import { useGetList } from 'react-admin';
import { FirstStepsCard } from '../area/FirstStepsCard';
import { clientSettingsSeen } from '../mail/mailboxes/clientSettingsSeen';
import { useCapacity } from '../storage/CapacitySummary';

/** Where "buy storage" leads: the shop's page. */
export const BUY_STORAGE_PATH = '/admin/storage/buy';

const one = { page: 1, perPage: 1 };
const newest = { field: 'id', order: 'DESC' as const };

export function FirstSteps() {
  const active = useGetList('domain', { pagination: one, sort: newest, filter: { status: 'active' } });
  const anyDomain = useGetList('domain', { pagination: one, sort: newest });
  const mailboxes = useGetList('email', { pagination: one, sort: newest });
  const capacity = useCapacity();
  if (active.isPending || anyDomain.isPending || mailboxes.isPending || capacity.isPending) return null;
  const firstDomain = anyDomain.data?.[0];
  const firstMailbox = mailboxes.data?.[0];
  return (
    <FirstStepsCard
      texts="app.first_steps"
      steps={[
        {
          key: 'domain',
          done: (active.total ?? 0) > 0,
          to: firstDomain ? `/admin/domain/update?id=${firstDomain.id}` : '/admin/domain/create',
        },
        { key: 'storage', done: (capacity.data?.capacity ?? 0) > 0, to: BUY_STORAGE_PATH },
        { key: 'mailbox', done: (mailboxes.total ?? 0) > 0, to: '/admin/email/create' },
        { key: 'client', done: clientSettingsSeen() && (mailboxes.total ?? 0) > 0, to: firstMailbox ? `/admin/email/update?id=${firstMailbox.id}#client-settings` : '/admin/email' },
      ]}
    />
  );
}
