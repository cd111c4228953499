/** The customer's points: the balance, and its latest ledger entries (with the order each belongs to) and a link to all of them. */
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { Button, useGetMany, useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { useAreaCall } from '../area/useAreaCall';
import { useMoney } from './money';
import { formatDate } from '../screens/shownDates';

export function usePointsBalance() {
  const call = useAreaCall();
  return useQuery({ queryKey: ['points-balance'], queryFn: () => call<{ balance: number; currency: string }>('POST', 'points/balance') });
}

/** "Points balance: 1,250 (worth ¥12.50)". */
export function PointsBalance() {
  const translate = useTranslate();
  const money = useMoney();
  const { data } = usePointsBalance();
  if (!data) return null;
  return (
    <Typography variant="body1" className="points-balance">
      {translate('app.shop.balance', { points: data.balance, money: money(data.balance, data.currency) })}
    </Typography>
  );
}

interface Entry {
  id: number;
  delta: number;
  balance_after: number;
  reason: string;
  note: string;
  order_id: number | null;
  created_at: string;
}

export function PointsCard() {
  const translate = useTranslate();
  const call = useAreaCall();
  const [locale] = useLocaleState();
  const { data } = useQuery({
    queryKey: ['points-latest'],
    queryFn: () => call<{ list: Entry[] }>('POST', 'points/list', { page_size: 5, sort: 'id', order: 'desc' }),
  });
  // The orders the entries belong to, named by their numbers (one call for all of them).
  const orderIds = [...new Set((data?.list ?? []).flatMap((e) => (e.order_id ? [e.order_id] : [])))];
  const { data: orders } = useGetMany('order', { ids: orderIds }, { enabled: orderIds.length > 0 });
  const orderOf = (id: number | null) => orders?.find((o) => o.id === id);
  return (
    <Card variant="outlined" sx={{ mt: 2, maxWidth: 720 }} className="points-card">
      <CardContent>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
          <Typography variant="subtitle1">{translate('app.shop.points_title')}</Typography>
          <Button component={Link} to="/admin/points" label="app.shop.all_entries" />
        </Box>
        <PointsBalance />
        {data && data.list.length > 0 && (
          <Table size="small" sx={{ mt: 1 }}>
            <TableBody>
              {data.list.map((e) => (
                <TableRow key={e.id}>
                  <TableCell>{formatDate(e.created_at, locale)}</TableCell>
                  <TableCell>{translate(`app.enum.reason.${e.reason}`, { _: e.reason })}</TableCell>
                  <TableCell>
                    {orderOf(e.order_id) && (
                      <Link to={`/admin/order/view?id=${e.order_id}`} className="order-number">
                        {orderOf(e.order_id)!.number}
                      </Link>
                    )}
                  </TableCell>
                  <TableCell align="right">{e.delta > 0 ? `+${e.delta}` : e.delta}</TableCell>
                  <TableCell align="right">{e.balance_after}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
