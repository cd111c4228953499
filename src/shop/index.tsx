/**
 * The shop's screens beside what the declarations give: prices read as money, products edited
 * as their kind needs (ProductInputs, ProductButtons), a promotion's
 * products picked by name, orders with their history and the buttons of their state, the
 * ledger's changes; and the customers' page that buys storage.
 */
import AddShoppingCartIcon from '@mui/icons-material/AddShoppingCart';
import CampaignIcon from '@mui/icons-material/Campaign';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import SavingsIcon from '@mui/icons-material/Savings';
import SellIcon from '@mui/icons-material/Sell';
import {
  AutocompleteArrayInput,
  ChipField,
  DateTimeInput,
  required,
  FunctionField,
  ReferenceArrayField,
  ReferenceArrayInput,
  ReferenceField,
  SingleFieldList,
  TextField,
  useLocaleState,
} from 'react-admin';
import { activity } from '../../resources/activity';
import type { Area } from '../../resources/define';
import { order } from '../../resources/order';
import { points } from '../../resources/points';
import { product } from '../../resources/product';
import type { AreaPage } from '../area/features';
import type { FieldInputProps, FieldViewProps, ScreenExtension, ScreenFeature } from '../screens/screen';
import { useScreenPaths } from '../screens/paths';
import { BuyStoragePage } from './BuyStoragePage';
import { useMoney } from './money';
import { OrderActions, OrderHistory } from './OrderPanel';
import { EndPromotionButton } from './OperatorButtons';
import { OnSaleButton, ProductDeleteButton } from './ProductButtons';
import { OnSaleInput, PeriodInput, PointsGrantedInput, PriceInput, StorageSizeInput } from './ProductInputs';
import { useShopCurrency } from './shopCurrency';

/** A money column of a record that carries its currency (orders), or the shop's (products). */
function MoneyView({ name }: FieldViewProps) {
  const money = useMoney();
  return <FunctionField source={name} render={(record) => (record[name] === null || record[name] === undefined ? '' : money(record[name], record.currency ?? 'CNY'))} />;
}

/** A ledger change with its sign. */
function DeltaView({ name }: FieldViewProps) {
  return <FunctionField source={name} render={(record) => (record[name] > 0 ? `+${record[name]}` : String(record[name]))} />;
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

/** A product's price in the shop currency (products carry none of their own). */
function ProductPriceView({ name }: FieldViewProps) {
  const money = useMoney();
  const currency = useShopCurrency();
  return <FunctionField source={name} render={(record) => (record[name] === null || record[name] === undefined ? '' : money(record[name], currency))} />;
}

const productScreens: ScreenExtension = {
  columns: () => ['name_zh', 'name_en', 'kind', 'price', 'storage_size', 'period_months', 'points_granted', 'visible', 'sort_order'],
  representation: 'name_en',
  views: { price: ProductPriceView },
  // Each kind its own fields; the price in yuan with how customers see it; a new product off sale.
  inputs: { price: PriceInput, storage_size: StorageSizeInput, period_months: PeriodInput, points_granted: PointsGrantedInput, visible: OnSaleInput },
  rowActions: OnSaleButton,
  deleteButton: ProductDeleteButton,
};

const promotionScreens: ScreenExtension = {
  columns: () => ['name_zh', 'name_en', 'kind', 'value', 'product_ids', 'starts_at', 'ends_at', 'code', 'used_count'],
  inputs: { product_ids: ProductsInput, starts_at: InstantInput, ends_at: InstantInput },
  views: { product_ids: ProductsView },
  updateActions: EndPromotionButton,
};

/** An order named by its number, linking to its page (ledger entries, storage blocks). */
function OrderNumberView({ name }: FieldViewProps) {
  const paths = useScreenPaths('order');
  return (
    <ReferenceField source={name} reference="order" link={(order) => paths.view(order.id)} emptyText="">
      <TextField source="number" className="order-number" />
    </ReferenceField>
  );
}

/** What an order's page shows: the product as it was bought, no database ids; operators also see whose it is and the promotion. */
const orderViewFields = (area: Area) => [
  'number',
  ...(area === 'manage' ? ['owner_id'] : []),
  'product_name_zh',
  'product_kind',
  'storage_size',
  'period_months',
  'points_granted',
  'price',
  'discount',
  'amount',
  'bonus_points',
  ...(area === 'manage' ? ['activity_id'] : []),
  'payment_method',
  'status',
  'pay_before',
  'paid_at',
  'fulfilled_at',
  'closed_at',
  'created_at',
];

const orderScreens: ScreenExtension = {
  // People quote the number (mails, tickets); the id stays out of sight.
  hideId: true,
  representation: 'number',
  columns: (area) => ['number', ...(area === 'manage' ? ['owner_id'] : []), 'product_name_zh', 'product_kind', 'amount', 'payment_method', 'status', 'created_at'],
  viewFields: orderViewFields,
  views: { price: MoneyView, discount: MoneyView, amount: MoneyView, product_name_zh: OrderProduct },
  viewPanel: OrderHistory,
  viewActions: OrderActions,
};

const pointsScreens: ScreenExtension = {
  // An entry is told apart by its time and reason; the order it belongs to by the order's number.
  hideId: true,
  columns: (area) => [...(area === 'manage' ? ['user_id'] : []), 'delta', 'balance_after', 'reason', 'note', 'order_id', 'created_at'],
  viewFields: (area) => [...(area === 'manage' ? ['user_id', 'actor_type'] : []), 'delta', 'balance_after', 'reason', 'note', 'order_id', 'created_at'],
  views: { delta: DeltaView, order_id: OrderNumberView },
};

export const products: ScreenFeature = { declaration: product, extension: productScreens, icon: SellIcon };
export const promotions: ScreenFeature = { declaration: activity, extension: promotionScreens, icon: CampaignIcon };
export const orders: ScreenFeature = { declaration: order, extension: orderScreens, icon: ReceiptLongIcon };
export const pointsLedger: ScreenFeature = { declaration: points, extension: pointsScreens, icon: SavingsIcon };

export const buyStoragePage: AreaPage = { path: 'storage/buy', label: 'app.shop.buy_title', icon: AddShoppingCartIcon, element: <BuyStoragePage /> };
