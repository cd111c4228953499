/**
 * Renewing a block from /admin/storage and the dashboard: today's price and promotion for its
 * size (storage/renewal), paid with points at once or by card; the order extends the same block.
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type MouseEvent } from 'react';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { Offer } from '../../resources/shop';
import { useAreaCall } from '../area/useAreaCall';
import { formatMoney } from '../shop/formatMoney';
import { useConfirmPayWithPoints } from '../shop/confirmPoints';
import { formatDate } from '../screens/shownDates';

interface RenewalOptions {
  storage_id: number;
  renewable: boolean;
  currency: string;
  card_available: boolean;
  options: { product_id: number; name_zh: string; name_en: string; period_months: number; offer: Offer; expires_at_after: string }[];
}

export function RenewButton({ blockId, size = 'small' }: { blockId: number; size?: 'small' | 'medium' }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size={size}
        variant="outlined"
        className="renew-button"
        onClick={(e: MouseEvent) => {
          e.stopPropagation();
          setOpen(true);
        }}
      >
        {translate('app.business.renew')}
      </Button>
      {open && <RenewDialog blockId={blockId} onClose={() => setOpen(false)} />}
    </>
  );
}

function RenewDialog({ blockId, onClose }: { blockId: number; onClose: () => void }) {
  const call = useAreaCall();
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [locale] = useLocaleState();
  const [busy, setBusy] = useState(false);
  const { data } = useQuery({ queryKey: ['storage-renewal', blockId], queryFn: () => call<RenewalOptions>('POST', 'storage/renewal', { id: blockId }) });
  const date = (iso: string) => formatDate(iso, locale);

  const confirmPoints = useConfirmPayWithPoints();
  const renew = async (productId: number, payWith: 'points' | 'card', until: string) => {
    const option = data?.options.find((o) => o.product_id === productId);
    const what = option ? `${locale === 'zh' ? option.name_zh : option.name_en} · ${translate('app.business.renew_until', { date: date(until) })}` : '';
    if (payWith === 'points' && option && !(await confirmPoints(option.offer.amount, data!.currency, what))) return;
    setBusy(true);
    try {
      const order = await call<{ id: number; status: string }>('POST', 'order/create', { product_id: productId, renew_storage_id: blockId, pay_with: payWith });
      if (payWith === 'card') {
        const checkout = await call<{ available: boolean; url: string | null }>('POST', 'order/create_payment_checkouturl', { id: order.id });
        if (checkout.available && checkout.url) window.location.assign(checkout.url);
        return;
      }
      notify('app.business.renewed', { type: 'success', messageArgs: { date: date(until) } });
      await queryClient.invalidateQueries();
      onClose();
    } catch {
      // The API's message has been shown (not enough points, promotion used up, …).
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" className="renew-dialog" onClick={(e) => e.stopPropagation()}>
      <DialogTitle>{translate('app.business.renew_title')}</DialogTitle>
      <DialogContent>
        {data && !data.renewable && <Typography>{translate('app.business.not_renewable')}</Typography>}
        {data?.options.map((option) => (
          <Stack key={option.product_id} spacing={1} sx={{ mb: 2 }} className="renew-option">
            <Typography variant="subtitle1">
              {locale === 'zh' ? option.name_zh : option.name_en} ·{' '}
              {translate('app.business.renew_with', { smart_count: option.period_months, price: formatMoney(option.offer.amount, data.currency, locale) })}
              {option.offer.discount > 0 && (
                <Typography component="span" sx={{ ml: 1, textDecoration: 'line-through' }} color="text.secondary">
                  {formatMoney(option.offer.price, data.currency, locale)}
                </Typography>
              )}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {translate('app.business.renew_until', { date: date(option.expires_at_after) })}
            </Typography>
            <Stack direction="row" spacing={1}>
              <Button variant="contained" disabled={busy} onClick={() => renew(option.product_id, 'points', option.expires_at_after)} className="renew-points">
                {translate('app.business.renew_points')}
              </Button>
              {data.card_available && (
                <Button variant="outlined" disabled={busy} onClick={() => renew(option.product_id, 'card', option.expires_at_after)} className="renew-card">
                  {translate('app.business.renew_card')}
                </Button>
              )}
            </Stack>
          </Stack>
        ))}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
