/** The shop screens' own texts in English (products as operators edit them, paying with points); texts-zh.ts must have every key. */
export const shopEn = {
  app: {
    products: {
      price_label: 'Price (%{currency})',
      price_hint: 'In %{unit}, up to %{smart_count} decimal: 99 is %{example}. |||| In %{unit}, up to %{smart_count} decimals: 99 is %{example}.',
      price_preview: 'Customers see %{zh} (Chinese) and %{en} (English).',
      price_format: 'A price such as 99 or 99.50',
      price_too_small: 'At least %{min}',
      period_hint: 'Empty: the block never expires.',
      off_sale_hint: 'Off sale: customers do not see it. Put it on sale once the name and price are right.',
      on_sale_hint: 'On sale: customers can buy it.',
      put_on_sale: 'Put on sale',
      take_off_sale: 'Take off sale',
      put_on_sale_title: 'Put on sale',
      put_on_sale_confirm: 'Put “%{name}” on sale at %{price}? Customers can buy it at once.',
      put_on_sale_new_confirm: 'Put it on sale as soon as it is saved, at %{price}? Customers can buy it at once.',
      on_sale_now: '“%{name}” is on sale.',
      off_sale_now: '“%{name}” is off sale: customers no longer see it.',
      cannot_delete_title: 'Cannot delete',
      has_orders: '%{smart_count} order refers to “%{name}”, so it cannot be deleted: the order names it. Take it off sale instead? Customers will no longer see it; the order keeps it. |||| %{smart_count} orders refer to “%{name}”, so it cannot be deleted: the orders name it. Take it off sale instead? Customers will no longer see it; the orders keep it.',
      has_orders_off_sale: '%{smart_count} order refers to “%{name}”, so it cannot be deleted; it is already off sale, which is all it needs. |||| %{smart_count} orders refer to “%{name}”, so it cannot be deleted; it is already off sale, which is all it needs.',
      delete_confirm: 'Delete the product “%{name}” for good? No order refers to it; promotions that name it will no longer do.',
      delete_title: 'Delete “%{name}”',
    },
    pay_points: {
      title: 'Pay with points',
      confirm: 'Pay %{smart_count} point (%{money}) for %{what}? Your balance goes from %{balance} to %{after}. |||| Pay %{smart_count} points (%{money}) for %{what}? Your balance goes from %{balance} to %{after}.',
    },
  },
};
