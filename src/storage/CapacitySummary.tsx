/**
 * A customer's mail capacity at a glance: capacity of the unexpired blocks, the quota given
 * to mailboxes out of it, and the bytes really stored (storage/summary).
 */
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { UsageBar } from '../area/UsageBar';
import { useAreaCall } from '../area/useAreaCall';
import type { CapacitySummary as Capacity } from '../../resources/storage';
import { formatBytes } from '../screens/bytes';

/** The summary of the signed-in customer (no customer id), or of one customer for operators. */
export function useCapacity(customerId?: number | string) {
  const call = useAreaCall();
  return useQuery({
    queryKey: ['storage-summary', customerId ?? 'own'],
    queryFn: () => call<Capacity>('POST', 'storage/summary', customerId ? { user_id: Number(customerId) } : {}),
  });
}

/** `inList`: inside a list's card, inset from its edges. */
export function CapacityCard({ customerId, inList }: { customerId?: number | string; inList?: boolean }) {
  const translate = useTranslate();
  const { data } = useCapacity(customerId);
  if (!data) return null;
  return (
    <Card variant="outlined" sx={inList ? { m: 1, maxWidth: 720 } : { mt: 2, maxWidth: 720 }} className="capacity-summary">
      <CardContent>
        <Typography variant="subtitle1" gutterBottom>
          {translate('app.storage.title')}
        </Typography>
        <Box sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 1, alignItems: 'center' }}>
          <Typography variant="body2">{translate('app.storage.allocated')}</Typography>
          <UsageBar used={data.allocated} total={data.capacity} width="100%" />
          <Typography variant="body2">{translate('app.storage.used')}</Typography>
          <UsageBar used={data.used} total={data.capacity} width="100%" />
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} className="capacity-figures">
          {translate('app.storage.figures', {
            capacity: formatBytes(data.capacity),
            available: formatBytes(data.available),
            // Two counts, each with its noun's forms.
            mailboxes: translate('app.storage.mailboxes', { smart_count: data.mailboxes }),
            blocks: translate('app.storage.blocks', { smart_count: data.active_blocks }),
            storage_max: formatBytes(data.storage_max),
          })}
        </Typography>
      </CardContent>
    </Card>
  );
}
