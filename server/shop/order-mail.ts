/** The order-paid mail, in the customer's language, with the amount as they read money. */
import type { Db } from '../db/index.js';
import type { Services } from '../core/services.js';

/** Tells the customer their order is paid and fulfilled (queued in the fulfilling transaction). */
export async function sendOrderPaidMail(trx: Db, services: Pick<Services, 'mailer'>, orderId: number): Promise<void> {
  const row = await trx
    .selectFrom('shop_order')
    .innerJoin('user', 'user.id', 'shop_order.owner_id')
    .select(['shop_order.id', 'shop_order.number', 'shop_order.owner_id', 'shop_order.product_name_zh', 'shop_order.product_name_en', 'shop_order.amount', 'shop_order.currency', 'user.email', 'user.locale'])
    .where('shop_order.id', '=', orderId)
    .executeTakeFirstOrThrow();
  const locale = row.locale === 'en' ? 'en' : 'zh';
  await services.mailer.send(trx, {
    key: 'order_paid',
    locale,
    to: row.email,
    userId: Number(row.owner_id),
    params: {
      order_id: Number(row.id),
      order_number: row.number,
      product: locale === 'zh' ? row.product_name_zh : row.product_name_en,
      amount: formatMoney(Number(row.amount), row.currency, locale),
    },
  });
}

/** An amount in minor units as people read it in their language. */
export function formatMoney(minor: number, currency: string, locale: 'zh' | 'en'): string {
  const format = new Intl.NumberFormat(locale === 'zh' ? 'zh-CN' : 'en-US', { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}
