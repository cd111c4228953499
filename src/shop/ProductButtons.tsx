/**
 * What an operator does to a product beside editing it: put it on sale or take it off (asking
 * first, with the price customers will see), and delete it — which, while orders refer to it,
 * offers taking it off sale instead (the server refuses the delete then too).
 */
import StorefrontIcon from '@mui/icons-material/Storefront';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import type { MouseEvent } from 'react';
import { Button, useDataProvider, useLocaleState, useNotify, useRecordContext, useRefresh, useTranslate, useUpdate, type RaRecord } from 'react-admin';
import { alert, confirm } from '../dialogs/store';
import { DeleteRecordButton } from '../screens/DeleteRecordButton';
import { formatMoney } from './formatMoney';
import { useShopCurrency } from './shopCurrency';

const RESOURCE = 'product';

function useProductName() {
  const [locale] = useLocaleState();
  return (record: RaRecord) => String(locale === 'en' ? record.name_en : record.name_zh);
}

/** Sets a product on or off sale; the caller has asked whatever needs asking. */
function useSetOnSale() {
  const [update, { isPending }] = useUpdate();
  const notify = useNotify();
  const refresh = useRefresh();
  const nameOf = useProductName();
  const set = (record: RaRecord, visible: 0 | 1) =>
    update(
      RESOURCE,
      { id: record.id, data: { visible }, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify(visible ? 'app.products.on_sale_now' : 'app.products.off_sale_now', { type: 'success', messageArgs: { name: nameOf(record) } });
          refresh();
        },
        // The WARNING alert has said why.
        onError: () => undefined,
      },
    );
  return { set, isPending };
}

/** "Put on sale" (asking, with the price) or "Take off sale", by what the product is now. */
export function OnSaleButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const currency = useShopCurrency();
  const nameOf = useProductName();
  const { set, isPending } = useSetOnSale();
  if (!record) return null;
  const onSale = Number(record.visible) === 1;
  const onClick = async (event: MouseEvent) => {
    event.stopPropagation();
    if (onSale) return set(record, 0);
    const question = translate('app.products.put_on_sale_confirm', { name: nameOf(record), price: formatMoney(Number(record.price), currency, locale) });
    if (await confirm(question, translate('app.products.put_on_sale_title'))) await set(record, 1);
  };
  return (
    <Button label={onSale ? 'app.products.take_off_sale' : 'app.products.put_on_sale'} onClick={onClick} disabled={isPending} className={onSale ? 'take-off-sale' : 'put-on-sale'}>
      {onSale ? <VisibilityOffIcon /> : <StorefrontIcon />}
    </Button>
  );
}

/** The orders that refer to a product (one is enough to keep it). */
function useOrdersOf() {
  const dataProvider = useDataProvider();
  return async (record: RaRecord) => (await dataProvider.getList('order', { pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'DESC' }, filter: { product_id: record.id } })).total ?? 0;
}

/** Delete, unless orders refer to the product: then taking it off sale is offered instead. */
export function ProductDeleteButton({ redirectTo }: { redirectTo?: string }) {
  const translate = useTranslate();
  const nameOf = useProductName();
  const ordersOf = useOrdersOf();
  const { set } = useSetOnSale();
  const noOrders = async (record: RaRecord) => {
    let orders: number;
    try {
      orders = await ordersOf(record);
    } catch {
      return false; // The WARNING alert has said why.
    }
    if (orders === 0) return true;
    const name = nameOf(record);
    const title = translate('app.products.cannot_delete_title');
    if (Number(record.visible) !== 1) await alert(title, translate('app.products.has_orders_off_sale', { smart_count: orders, name }));
    else if (await confirm(translate('app.products.has_orders', { smart_count: orders, name }), title)) await set(record, 0);
    return false;
  };
  const question = (record: RaRecord) => ({ question: translate('app.products.delete_confirm', { name: nameOf(record) }), title: translate('app.products.delete_title', { name: nameOf(record) }) });
  return <DeleteRecordButton redirectTo={redirectTo} beforeDelete={noOrders} question={question} className="delete-product" />;
}
