/**
 * An order's page: its history (who changed what, when, why) and card payment attempts, and
 * the buttons its state allows — pay again (points or card) or cancel while pending for the
 * customer, who may also ask about it in a new ticket; cancel while pending and refund once
 * paid for the operator.
 */
import CancelIcon from '@mui/icons-material/Cancel';
import CreditCardIcon from '@mui/icons-material/CreditCard';
import ReplayIcon from '@mui/icons-material/Replay';
import SavingsIcon from '@mui/icons-material/Savings';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button, RadioButtonGroupInput, TextInput, maxLength, useLocaleState, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { Link, useSearchParams } from 'react-router-dom';
import { CallDialog } from '../area/CallDialog';
import { useAreaCall } from '../area/useAreaCall';
import type { Screen } from '../screens/screen';
import { StatusChip } from '../screens/fields';
import { useScreenPaths } from '../screens/paths';
import { useMoney } from './money';
import { formatDateTime } from '../screens/shownDates';

interface HistoryRow {
  id: number;
  from_status: string | null;
  to_status: string;
  actor_type: string;
  actor_name: string;
  reason: string;
  created_at: string;
}
interface PaymentRow {
  id: number;
  provider: string;
  status: string;
  amount: number;
  currency: string;
  created_at: string;
}

export function OrderHistory({ screen }: { screen: Screen }) {
  const record = useRecordContext();
  const call = useAreaCall();
  const translate = useTranslate();
  const money = useMoney();
  const [locale] = useLocaleState();
  const [search] = useSearchParams();
  const refresh = useRefresh();
  // Back from the card checkout: the payment notice and the fulfilment arrive within seconds.
  const waiting = search.get('paid') === '1' && (record?.status === 'pending_payment' || record?.status === 'paid');
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(refresh, 2000);
    return () => clearInterval(timer);
  }, [waiting, refresh]);
  const { data } = useQuery({
    queryKey: ['order-history', screen.area, record?.id, record?.status],
    queryFn: () => call<{ history: HistoryRow[]; payments: PaymentRow[] }>('GET', 'order/history', { id: record!.id }),
    enabled: Boolean(record),
  });
  if (!record || !data) return null;
  const when = (iso: string) => formatDateTime(iso, locale);
  return (
    <Box sx={{ p: 2 }} className="order-history">
      {waiting && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('app.shop.payment_processing')}
        </Alert>
      )}
      <Typography variant="subtitle1" gutterBottom>
        {translate('app.shop.history')}
      </Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.shop.when')}</TableCell>
            <TableCell>{translate('app.shop.status')}</TableCell>
            <TableCell>{translate('app.shop.by')}</TableCell>
            <TableCell>{translate('app.shop.reason')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.history.map((h) => (
            <TableRow key={h.id} className={`history-${h.to_status}`}>
              <TableCell>{when(h.created_at)}</TableCell>
              <TableCell>
                <StatusChip value={h.to_status} />
              </TableCell>
              <TableCell>
                {translate(`app.enum.actor_type.${h.actor_type}`, { _: h.actor_type })} {h.actor_type === 'provider' ? '' : h.actor_name}
              </TableCell>
              <TableCell>{translate(`app.shop.reasons.${h.reason.replace(/ /g, '_')}`, { _: h.reason })}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {data.payments.length > 0 && (
        <>
          <Typography variant="subtitle1" sx={{ mt: 2 }} gutterBottom>
            {translate('app.shop.card_payments')}
          </Typography>
          <Table size="small">
            <TableBody>
              {data.payments.map((p) => (
                <TableRow key={p.id}>
                  <TableCell>{when(p.created_at)}</TableCell>
                  <TableCell>{money(p.amount, p.currency)}</TableCell>
                  <TableCell>{translate(`app.shop.payment_status.${p.status}`, { _: p.status })}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
    </Box>
  );
}

export function OrderActions({ screen }: { screen: Screen }) {
  const record = useRecordContext();
  if (!record) return null;
  if (screen.area === 'admin') {
    return (
      <>
        {record.status === 'pending_payment' && <CustomerPendingButtons />}
        <AskAboutOrderButton />
      </>
    );
  }
  return <OperatorOrderButtons />;
}

/** A new ticket about this order: the link (checked by the server to be the customer's), a subject and the billing desk filled in. */
function AskAboutOrderButton() {
  const record = useRecordContext()!;
  const translate = useTranslate();
  const tickets = useScreenPaths('ticket');
  const source = { link_type: 'order', link_id: record.id, category: 'billing', subject: translate('app.ticket.about_order', { number: record.number }) };
  return (
    <Button component={Link} to={`${tickets.create}?source=${encodeURIComponent(JSON.stringify(source))}`} label="app.ticket.ask_about_order" className="ask-about-order">
      <SupportAgentIcon />
    </Button>
  );
}

function CustomerPendingButtons() {
  const record = useRecordContext()!;
  const call = useAreaCall();
  const notify = useNotify();
  const refresh = useRefresh();
  const act = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch {
      // The WARNING alert has said why.
    }
  };
  const payPoints = () =>
    act(async () => {
      await call('POST', 'order/pay_points', { id: record.id });
      notify('app.shop.paid', { type: 'success' });
      refresh();
    });
  const payCard = () =>
    act(async () => {
      const answer = await call<{ available: boolean; url: string | null; message?: string }>('POST', 'order/create_payment_checkouturl', { id: record.id });
      if (answer.available && answer.url) window.location.assign(answer.url);
      else notify(answer.message ?? 'shop.card_unavailable', { type: 'info' });
    });
  const cancel = () =>
    act(async () => {
      await call('POST', 'order/cancel', { id: record.id });
      notify('app.shop.cancelled', { type: 'success' });
      refresh();
    });
  return (
    <>
      {record.product_kind !== 'points' && (
        <Button label="app.shop.pay_points" onClick={payPoints} className="pay-points">
          <SavingsIcon />
        </Button>
      )}
      <Button label="app.shop.pay_card" onClick={payCard} className="pay-card">
        <CreditCardIcon />
      </Button>
      <Button label="app.shop.cancel_order" onClick={cancel} className="cancel-order">
        <CancelIcon />
      </Button>
    </>
  );
}

function OperatorOrderButtons() {
  const record = useRecordContext()!;
  const call = useAreaCall();
  const notify = useNotify();
  const refresh = useRefresh();
  const [dialog, setDialog] = useState<'cancel' | 'refund' | null>(null);
  const done = (message: string) => () => {
    setDialog(null);
    notify(message, { type: 'success' });
    refresh();
  };
  const refundable = record.status === 'paid' || record.status === 'fulfilled';
  return (
    <>
      {record.status === 'pending_payment' && (
        <Button label="app.shop.cancel_order" onClick={() => setDialog('cancel')} className="cancel-order">
          <CancelIcon />
        </Button>
      )}
      {refundable && (
        <Button label="app.shop.refund" onClick={() => setDialog('refund')} className="refund-order">
          <ReplayIcon />
        </Button>
      )}
      <CallDialog
        open={dialog === 'cancel'}
        title="app.shop.cancel_order"
        submitLabel="app.shop.cancel_order"
        className="cancel-order-dialog"
        onClose={() => setDialog(null)}
        call={({ reason }) => call('POST', 'order/cancel', { id: record.id, reason: reason ?? '' })}
        onDone={done('app.shop.cancelled')}
      >
        <TextInput source="reason" label="app.shop.reason" validate={maxLength(500)} fullWidth />
      </CallDialog>
      <CallDialog
        open={dialog === 'refund'}
        title="app.shop.refund"
        submitLabel="app.shop.refund"
        className="refund-dialog"
        onClose={() => setDialog(null)}
        call={({ to, reason }) => call('POST', 'order/refund', { id: record.id, to: to ?? 'points', reason: reason ?? '' })}
        onDone={done('app.shop.refunded')}
      >
        <RadioButtonGroupInput
          source="to"
          label="app.shop.refund_to"
          defaultValue={record.payment_method === 'stripe' ? 'original' : 'points'}
          choices={[
            { id: 'points', name: 'app.shop.refund_to_points' },
            ...(record.payment_method === 'stripe' ? [{ id: 'original', name: 'app.shop.refund_to_card' }] : []),
          ]}
        />
        <TextInput source="reason" label="app.shop.reason" validate={maxLength(500)} fullWidth />
      </CallDialog>
    </>
  );
}
