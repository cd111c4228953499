/**
 * /admin/storage/buy: the products on sale with the price this customer pays today (an
 * optional promotion code), paid from the points balance at once or by card on the
 * provider's checkout page (paying with points asks first, with the points and what they buy).
 * Card payment is offered only when the shop has a card provider.
 */
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import MuiTextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Title, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { Offer } from '../../resources/shop';
import { useAreaCall } from '../area/useAreaCall';
import { formatBytes } from '../screens/bytes';
import { useConfirmPayWithPoints } from './confirmPoints';
import { useMoney } from './money';
import { PointsBalance } from './PointsCard';

interface ShopProduct {
  id: number;
  kind: 'storage' | 'points';
  name_zh: string;
  name_en: string;
  description_zh: string;
  description_en: string;
  price: number;
  storage_size: number | null;
  period_months: number | null;
  points_granted: number | null;
  offer: Offer;
}
interface ShopList {
  list: ShopProduct[];
  currency: string;
  card_available: boolean;
}

export function BuyStoragePage() {
  const call = useAreaCall();
  const translate = useTranslate();
  const money = useMoney();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [locale] = useLocaleState();
  const [code, setCode] = useState('');
  const [offers, setOffers] = useState<Record<number, Offer>>({});
  const [busy, setBusy] = useState(false);
  const { data } = useQuery({ queryKey: ['shop-products'], queryFn: () => call<ShopList>('POST', 'product/list', { page_size: 100 }) });
  const confirmPoints = useConfirmPayWithPoints();
  const describe = (product: ShopProduct) =>
    `${locale === 'en' ? product.name_en : product.name_zh} (${
      product.kind === 'storage'
        ? translate(product.period_months ? 'app.shop.storage_for' : 'app.shop.storage_forever', { size: formatBytes(product.storage_size ?? 0), smart_count: product.period_months ?? 0 })
        : translate('app.shop.points_for', { smart_count: product.points_granted ?? 0 })
    })`;

  const applyCode = async () => {
    try {
      const answer = await call<ShopList>('POST', 'product/list', { page_size: 100, code });
      setOffers(Object.fromEntries(answer.list.map((p) => [p.id, p.offer])));
      notify('app.shop.code_applied', { type: 'success' });
    } catch {
      // The WARNING alert has said why (unknown code, used up, not for these products).
    }
  };

  const buy = async (product: ShopProduct, payWith: 'points' | 'card') => {
    const offer = offers[product.id] ?? product.offer;
    if (payWith === 'points' && !(await confirmPoints(offer.amount, data?.currency ?? 'CNY', describe(product)))) return;
    setBusy(true);
    try {
      const typed = offers[product.id]?.activity_id ? code : undefined;
      const order = await call<{ id: number }>('POST', 'order/create', { product_id: product.id, pay_with: payWith, ...(typed ? { code: typed } : {}) });
      await queryClient.invalidateQueries();
      if (payWith === 'card') {
        const checkout = await call<{ available: boolean; url: string | null }>('POST', 'order/create_payment_checkouturl', { id: order.id });
        if (checkout.available && checkout.url) {
          window.location.assign(checkout.url);
          return;
        }
      } else notify('app.shop.paid', { type: 'success' });
      navigate(`/admin/order/view?id=${order.id}`);
    } catch {
      // The WARNING alert has said why (not enough points, promotion used up, …).
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ mt: 2 }} className="buy-storage">
      <Title title="app.shop.buy_title" />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <PointsBalance />
        <MuiTextField size="small" label={translate('app.shop.code')} value={code} onChange={(e) => setCode(e.target.value)} inputProps={{ className: 'promotion-code' }} />
        <Button label="app.shop.apply_code" onClick={applyCode} disabled={!code.trim()} className="apply-code" />
      </Box>
      {data && !data.card_available && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} className="card-unavailable">
          {translate('shop.card_unavailable')}
        </Typography>
      )}
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: 2 }}>
        {data?.list.map((product) => {
          const offer = offers[product.id] ?? product.offer;
          return (
            <Card key={product.id} className={`product product-${product.id}`} variant="outlined">
              <CardContent>
                <Typography variant="h6">{locale === 'en' ? product.name_en : product.name_zh}</Typography>
                <Typography variant="body2" color="text.secondary" sx={{ minHeight: 20 }}>
                  {locale === 'en' ? product.description_en : product.description_zh}
                </Typography>
                <Typography variant="body2" sx={{ mt: 1 }}>
                  {product.kind === 'storage'
                    ? translate(product.period_months ? 'app.shop.storage_for' : 'app.shop.storage_forever', { size: formatBytes(product.storage_size ?? 0), smart_count: product.period_months ?? 0 })
                    : translate('app.shop.points_for', { smart_count: product.points_granted ?? 0 })}
                </Typography>
                <Box sx={{ mt: 1, display: 'flex', alignItems: 'baseline', gap: 1 }}>
                  <Typography variant="h5" className="price">
                    {money(offer.amount, data.currency)}
                  </Typography>
                  {offer.discount > 0 && (
                    <Typography variant="body2" color="text.secondary" sx={{ textDecoration: 'line-through' }} className="list-price">
                      {money(offer.price, data.currency)}
                    </Typography>
                  )}
                </Box>
                {offer.bonus_points > 0 && <Chip size="small" color="success" label={translate('app.shop.bonus', { smart_count: offer.bonus_points })} />}
                {offer.activity_id && offer.discount > 0 && <Chip size="small" color="warning" label={translate('app.shop.promoted')} className="promoted" />}
              </CardContent>
              <CardActions>
                {product.kind === 'storage' && (
                  <Button label="app.shop.pay_points" variant="contained" disabled={busy} onClick={() => buy(product, 'points')} className="buy-points" />
                )}
                {data.card_available && <Button label="app.shop.pay_card" variant="outlined" disabled={busy} onClick={() => buy(product, 'card')} className="buy-card" />}
              </CardActions>
            </Card>
          );
        })}
      </Box>
      {data?.list.length === 0 && <Typography color="text.secondary">{translate('app.shop.nothing_on_sale')}</Typography>}
    </Box>
  );
}
