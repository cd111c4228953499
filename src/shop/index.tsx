/**
 * The shop's screens beside what the declarations give: prices read as money, a promotion's
 * products picked by name, orders with their history and the buttons of their state, the
 * ledger's changes, and adding points from a customer's page.
 */
import { AutocompleteArrayInput, ChipField, DateTimeInput, required, FunctionField, ReferenceArrayField, ReferenceArrayInput, SingleFieldList, useLocaleState } from 'react-admin';
import type { FieldInputProps, FieldViewProps, ScreenExtension } from '../screens/extensions';
import { useMoney } from './money';
import { OrderActions, OrderHistory } from './OrderPanel';
import { AddPointsButton, EndPromotionButton } from './OperatorButtons';

/** A money column of a record that carries its currency (orders), or the shop's (products). */
function MoneyView({ name }: FieldViewProps) {
  const money = useMoney();
  return <FunctionField source={name} render={(record) => (record[name] === null || record[name] === undefined ? '' : money(record[name], record.currency ?? 'CNY'))} />;
}

/** A ledger change with its sign. */
function DeltaView({ name }: FieldViewProps) {
  return <FunctionField source={name} render={(record) => (record[name] > 0 ? `+${record[name]}` : String(record[name]))} />;
}

/** The product's name in the reader's language. */
function ProductName() {
  const [locale] = useLocaleState();
  return <FunctionField render={(record) => (locale === 'en' ? record.name_en : record.name_zh)} />;
}

function ProductsInput({ name }: FieldInputProps) {
  const [locale] = useLocaleState();
  return (
    <ReferenceArrayInput source={name} reference="product" perPage={100}>
      <AutocompleteArrayInput fullWidth optionText={locale === 'en' ? 'name_en' : 'name_zh'} filterToQuery={(q) => ({ q })} />
    </ReferenceArrayInput>
  );
}

/** A moment typed in the reader's local time, sent as an instant with its offset (UTC). */
function InstantInput({ name }: FieldInputProps) {
  return <DateTimeInput source={name} validate={required()} fullWidth parse={(value: string) => (value ? new Date(value).toISOString() : null)} />;
}

function ProductsView({ name }: FieldViewProps) {
  const [locale] = useLocaleState();
  return (
    <ReferenceArrayField source={name} reference="product">
      <SingleFieldList linkType={false}>
        <ChipField source={locale === 'en' ? 'name_en' : 'name_zh'} size="small" />
      </SingleFieldList>
    </ReferenceArrayField>
  );
}

/** An order's product in the reader's language (the snapshot taken when it was made). */
function OrderProduct({ name }: FieldViewProps) {
  const [locale] = useLocaleState();
  return <FunctionField source={name} render={(record) => (locale === 'en' ? record.product_name_en : record.product_name_zh)} />;
}

export const productScreens: ScreenExtension = {
  columns: () => ['name_zh', 'name_en', 'kind', 'price', 'storage_size', 'period_months', 'points_granted', 'visible', 'sort_order'],
  representation: 'name_en',
  views: { price: MoneyView },
};

export const activityScreens: ScreenExtension = {
  columns: () => ['name_zh', 'name_en', 'kind', 'value', 'product_ids', 'starts_at', 'ends_at', 'code', 'used_count'],
  inputs: { product_ids: ProductsInput, starts_at: InstantInput, ends_at: InstantInput },
  views: { product_ids: ProductsView },
  updateActions: EndPromotionButton,
};

export const orderScreens: ScreenExtension = {
  columns: (area) => [...(area === 'manage' ? ['owner_id'] : []), 'product_name_zh', 'product_kind', 'amount', 'payment_method', 'status', 'created_at'],
  views: { price: MoneyView, discount: MoneyView, amount: MoneyView, product_name_zh: OrderProduct },
  viewPanel: OrderHistory,
  viewActions: OrderActions,
};

export const pointsScreens: ScreenExtension = {
  columns: (area) => [...(area === 'manage' ? ['user_id'] : []), 'delta', 'balance_after', 'reason', 'note', 'order_id', 'created_at'],
  views: { delta: DeltaView },
};

export const customerShopScreens: ScreenExtension = {
  updateActions: AddPointsButton,
};

export { ProductName };
