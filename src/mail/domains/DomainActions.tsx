/**
 * A domain's status buttons. Anyone who may verify: "verify" while it is pending (looks the
 * TXT record up now; activates the domain when it is there). Operators also: mark verified
 * without DNS, suspend, and lift a suspension (through update of status).
 */
import BlockIcon from '@mui/icons-material/Block';
import PlayCircleIcon from '@mui/icons-material/PlayCircle';
import VerifiedIcon from '@mui/icons-material/Verified';
import { useQueryClient } from '@tanstack/react-query';
import { Button, useNotify, useRecordContext, useRefresh, useUpdate } from 'react-admin';
import { useAreaCall } from '../../area/useAreaCall';
import { pageQueryMeta } from '../../screens/RecordPage';
import type { Screen } from '../../screens/screen';

function VerifyButton() {
  const record = useRecordContext();
  const call = useAreaCall();
  const notify = useNotify();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  if (!record || record.status !== 'pending') return null;
  const verify = async () => {
    try {
      await call('POST', 'domain/verify', { id: record.id });
      notify('app.domain.verified', { type: 'success' });
    } catch {
      // The WARNING alert names the record to publish.
    }
    await queryClient.invalidateQueries({ queryKey: ['domain-dns', record.id] });
    refresh();
  };
  return (
    <Button label="app.domain.verify" onClick={verify} className="domain-verify">
      <VerifiedIcon />
    </Button>
  );
}

function StatusButton({ to, label, icon, className }: { to: string; label: string; icon: React.ReactElement; className: string }) {
  const record = useRecordContext();
  const notify = useNotify();
  const [update, { isPending }] = useUpdate();
  if (!record) return null;
  // The page's meta: react-admin then updates the record the page shows, keyed by it.
  const onClick = () =>
    update(
      'domain',
      { id: record.id, data: { status: to }, previousData: record, meta: pageQueryMeta },
      { mutationMode: 'pessimistic', onSuccess: () => notify('app.domain.status_changed', { type: 'success' }), onError: () => undefined },
    );
  return (
    <Button label={label} onClick={onClick} disabled={isPending} className={className} color={to === 'suspended' ? 'error' : 'primary'}>
      {icon}
    </Button>
  );
}

export function DomainActions({ screen }: { screen: Screen }) {
  const record = useRecordContext();
  if (!record) return null;
  const operator = screen.area === 'manage';
  return (
    <>
      <VerifyButton />
      {operator && record.status === 'pending' && <StatusButton to="active" label="app.domain.mark_verified" icon={<VerifiedIcon />} className="domain-mark-verified" />}
      {operator && record.status !== 'suspended' && <StatusButton to="suspended" label="app.domain.suspend" icon={<BlockIcon />} className="domain-suspend" />}
      {operator && record.status === 'suspended' && (
        <StatusButton to={record.verified_at ? 'active' : 'pending'} label="app.domain.unsuspend" icon={<PlayCircleIcon />} className="domain-unsuspend" />
      )}
    </>
  );
}
