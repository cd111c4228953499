/**
 * The public product list (POST /api/product/list): the products on sale with today's price,
 * in the visitor's language and the shop currency. Nothing is shown when none is on sale.
 */
import { useEffect, useState } from 'react';
import { publicApi } from '../api/clients';
import { Card } from './ui';
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
    <section className="products">
      <h2 className="ui-h4 ui-gutter">{t('app.index.products_title')}</h2>
      <div className="products-grid">
        {products.map((p) => (
          <Card key={p.id} className="product">
            <h6 className="ui-h6">{locale === 'en' ? p.name_en : p.name_zh}</h6>
            <p className="ui-body1 ui-secondary">{locale === 'en' ? p.description_en : p.description_zh}</p>
            <p className="ui-body1 price">
              {formatMoney(p.offer.amount, currency, locale)}
              {p.offer.discount > 0 && <span className="ui-secondary price-before-discount">{formatMoney(p.offer.price, currency, locale)}</span>}
            </p>
          </Card>
        ))}
      </div>
    </section>
  );
}
