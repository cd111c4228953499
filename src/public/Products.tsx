/**
 * The public product list (POST /api/product/list): the products on sale with today's price,
 * in the visitor's language and the shop currency. Nothing is shown when none is on sale.
 */
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { publicApi } from '../api/clients';
import { usePublicI18n } from './usePublicI18n';
import { formatMoney } from '../shop/formatMoney';

interface Product {
  id: number;
  name_zh: string;
  name_en: string;
  description_zh: string;
  description_en: string;
  offer: { price: number; amount: number; discount: number };
}

export function Products() {
  const { t, locale } = usePublicI18n();
  const [products, setProducts] = useState<Product[]>([]);
  const [currency, setCurrency] = useState('CNY');
  useEffect(() => {
    let live = true;
    publicApi<{ list?: Product[]; currency?: string }>({ method: 'POST', path: '/api/product/list', params: { page: 1, page_size: 12 }, silent: true })
      .then((answer) => {
        if (!live) return;
        setProducts(Array.isArray(answer?.list) ? answer.list : []);
        if (answer?.currency) setCurrency(answer.currency);
      })
      .catch(() => live && setProducts([]));
    return () => {
      live = false;
    };
  }, []);
  if (products.length === 0) return null;
  return (
    <Box component="section" sx={{ mb: 6 }} className="products">
      <Typography variant="h4" component="h2" gutterBottom>
        {t('app.index.products_title')}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 2 }}>
        {products.map((p) => (
          <Card key={p.id} className="product">
            <CardContent>
              <Typography variant="h6">{locale === 'en' ? p.name_en : p.name_zh}</Typography>
              <Typography color="text.secondary">{locale === 'en' ? p.description_en : p.description_zh}</Typography>
              <Typography sx={{ mt: 1, fontWeight: 600 }} className="price">
                {formatMoney(p.offer.amount, currency, locale)}
                {p.offer.discount > 0 && (
                  <Typography component="span" color="text.secondary" sx={{ ml: 1, textDecoration: 'line-through', fontWeight: 400 }}>
                    {formatMoney(p.offer.price, currency, locale)}
                  </Typography>
                )}
              </Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
    </Box>
  );
}
