/**
 * The public product list (POST /api/product/list). The section appears only when the API has
 * products to show: until the shop exists the call answers "no such call" and nothing is shown.
 */
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { publicApi } from '../api/clients';
import { usePublicI18n } from './usePublicI18n';

interface Product {
  id: number;
  name: string;
  description?: string;
  price?: number;
}

export function Products() {
  const { t } = usePublicI18n();
  const [products, setProducts] = useState<Product[]>([]);
  useEffect(() => {
    let live = true;
    publicApi<{ list?: Product[] }>({ method: 'POST', path: '/api/product/list', params: { page: 1, page_size: 12 }, silent: true })
      .then((answer) => live && setProducts(Array.isArray(answer?.list) ? answer.list : []))
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
          <Card key={p.id}>
            <CardContent>
              <Typography variant="h6">{p.name}</Typography>
              {p.description && <Typography color="text.secondary">{p.description}</Typography>}
              {typeof p.price === 'number' && <Typography sx={{ mt: 1, fontWeight: 600 }}>{(p.price / 100).toFixed(2)}</Typography>}
            </CardContent>
          </Card>
        ))}
      </Box>
    </Box>
  );
}
