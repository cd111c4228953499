/** Above the domain list: how many domains still wait for verification (they receive no mail until verified). */
import Alert from '@mui/material/Alert';
import { useGetList, useTranslate } from 'react-admin';
import type { Screen } from '../../screens/screen';

export function PendingDomainsNotice({ screen }: { screen: Screen }) {
  const translate = useTranslate();
  const { total } = useGetList(screen.name, { pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'DESC' }, filter: { status: 'pending' } });
  if (!total) return null;
  return (
    <Alert severity="warning" sx={{ m: 1 }} className="pending-domains">
      {translate('app.first_steps.pending_domains', { smart_count: total })}
    </Alert>
  );
}
