/**
 * The customer dashboard's view of storage over time: a banner for blocks that expire within
 * 30 days (with Renew) and for quotas above the capacity, a chart of how the capacity is used,
 * the blocks with their expiry, and the latest orders.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { useAreaCall } from '../area/useAreaCall';
import { formatBytes } from '../screens/bytes';
import { formatMoney } from '../shop/formatMoney';
import { useCapacity } from '../storage/CapacitySummary';
import { RenewButton } from '../storage/Renewal';
import { formatDate } from '../screens/shownDates';

const DAY = 86_400_000;

interface Block {
  id: number;
  size: number;
  label: string;
  source: string;
  expires_at: string | null;
}

function useBlocks() {
  const call = useAreaCall();
  return useQuery({
    queryKey: ['storage', 'dashboard-blocks'],
    queryFn: () => call<{ list: Block[]; total: number }>('POST', 'storage/list', { page_size: 20, sort: 'expires_at', order: 'asc' }),
  });
}

const useDate = () => {
  const [locale] = useLocaleState();
  return (iso: string) => formatDate(iso, locale);
};

export function StorageBanners() {
  const translate = useTranslate();
  const date = useDate();
  const { data: blocks } = useBlocks();
  const { data: capacity } = useCapacity();
  const soon = (blocks?.list ?? []).filter((b) => b.expires_at && Date.parse(b.expires_at) > Date.now() && Date.parse(b.expires_at) <= Date.now() + 30 * DAY);
  return (
    <>
      {capacity && capacity.shortfall > 0 && (
        <Alert
          severity="error"
          sx={{ mb: 2 }}
          className="over-capacity-banner"
          action={
            <Button component={Link} to="/admin/storage/buy" color="inherit" size="small">
              {translate('app.shop.buy_title')}
            </Button>
          }
        >
          {translate('app.business.over_banner', { shortfall: formatBytes(capacity.shortfall) })}
        </Alert>
      )}
      {soon.map((block) => (
        <Alert key={block.id} severity="warning" sx={{ mb: 2 }} className="expiry-banner" action={<RenewButton blockId={block.id} />}>
          {translate('app.business.expiring_banner', { size: formatBytes(block.size), date: date(block.expires_at!) })}
        </Alert>
      ))}
    </>
  );
}

/** How the capacity is used: stored, given to mailboxes but empty, and free (a stacked bar). */
function CapacityChart() {
  const translate = useTranslate();
  const { data } = useCapacity();
  if (!data) return null;
  const whole = Math.max(data.capacity, data.allocated, 1);
  const parts = [
    { key: 'used', label: translate('app.storage.used'), bytes: Math.min(data.used, data.allocated), color: 'primary.main' },
    { key: 'allocated', label: translate('app.storage.allocated'), bytes: Math.max(0, data.allocated - data.used), color: 'primary.light' },
    { key: 'free', label: translate('app.business.free'), bytes: Math.max(0, data.capacity - data.allocated), color: 'grey.300' },
  ];
  return (
    <Box className="capacity-chart" sx={{ mt: 1 }}>
      <Box sx={{ display: 'flex', height: 18, borderRadius: 1, overflow: 'hidden', border: 1, borderColor: 'divider' }}>
        {parts.map((p) => (
          <Tooltip key={p.key} title={`${p.label}: ${formatBytes(p.bytes)}`}>
            <Box sx={{ width: `${(100 * p.bytes) / whole}%`, bgcolor: p.color }} />
          </Tooltip>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 2, mt: 0.5, flexWrap: 'wrap' }}>
        {parts.map((p) => (
          <Typography key={p.key} variant="caption" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            <Box component="span" sx={{ width: 10, height: 10, bgcolor: p.color, display: 'inline-block', borderRadius: 0.5 }} />
            {p.label} {formatBytes(p.bytes)}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}

export function BlocksCard() {
  const translate = useTranslate();
  const date = useDate();
  const { data } = useBlocks();
  return (
    <Card variant="outlined" sx={{ mt: 2, maxWidth: 720 }} className="storage-blocks">
      <CardContent>
        <Typography variant="subtitle1">{translate('app.business.usage_chart')}</Typography>
        <CapacityChart />
        <Typography variant="subtitle1" sx={{ mt: 2 }}>
          {translate('app.business.blocks')}
        </Typography>
        <Table size="small">
          <TableBody>
            {(data?.list ?? []).map((block) => (
              <TableRow key={block.id}>
                <TableCell>{formatBytes(block.size)}</TableCell>
                <TableCell>{block.label}</TableCell>
                <TableCell>
                  {translate('app.business.expires')}: {block.expires_at ? date(block.expires_at) : translate('app.business.never')}
                </TableCell>
                <TableCell align="right">{block.expires_at && <RenewButton blockId={block.id} />}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

interface OrderLine {
  id: number;
  number: string;
  product_name_zh: string;
  product_name_en: string;
  amount: number;
  currency?: string;
  status: string;
  created_at: string;
}

export function RecentOrdersCard() {
  const call = useAreaCall();
  const translate = useTranslate();
  const date = useDate();
  const [locale] = useLocaleState();
  const { data } = useQuery({ queryKey: ['order', 'recent'], queryFn: () => call<{ list: OrderLine[] }>('POST', 'order/list', { page_size: 5, sort: 'id', order: 'desc' }) });
  return (
    <Card variant="outlined" sx={{ mt: 2, maxWidth: 720 }} className="recent-orders">
      <CardContent>
        <Typography variant="subtitle1">{translate('app.business.recent_orders')}</Typography>
        {data && data.list.length === 0 && <Typography variant="body2">{translate('app.business.no_orders')}</Typography>}
        <Table size="small">
          <TableBody>
            {(data?.list ?? []).map((order) => (
              <TableRow key={order.id}>
                <TableCell>
                  <Link to={`/admin/order/view?id=${order.id}`} className="order-number">
                    {order.number}
                  </Link>
                </TableCell>
                <TableCell>{locale === 'zh' ? order.product_name_zh : order.product_name_en}</TableCell>
                <TableCell>{formatMoney(order.amount, order.currency ?? 'CNY', locale)}</TableCell>
                <TableCell>{translate(`app.enum.status.${order.status}`, { _: order.status })}</TableCell>
                <TableCell>{date(order.created_at)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}
