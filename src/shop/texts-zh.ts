/** 商店界面自己的中文文本（运营人员编辑商品、用积分支付），与 texts-en.ts 的键一一对应。 */
import type { shopEn } from './texts-en';

type Texts<T> = { [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };

export const shopZh: Texts<typeof shopEn> = {
  app: {
    products: {
      price_label: '价格（%{currency}）',
      price_hint: '单位为%{unit}，最多 %{smart_count} 位小数：99 即 %{example}。',
      price_preview: '客户看到的价格：%{zh}（中文）、%{en}（英文）。',
      price_format: '请输入价格，例如 99 或 99.50',
      price_too_small: '至少 %{min}',
      period_hint: '留空：该存储空间永不过期。',
      off_sale_hint: '未上架：客户看不到它。确认名称和价格无误后再上架。',
      on_sale_hint: '已上架：客户可以购买。',
      put_on_sale: '上架',
      take_off_sale: '下架',
      put_on_sale_title: '上架',
      put_on_sale_confirm: '以 %{price} 上架“%{name}”？客户立即可以购买。',
      put_on_sale_new_confirm: '保存后立即以 %{price} 上架？客户立即可以购买。',
      on_sale_now: '“%{name}”已上架。',
      off_sale_now: '“%{name}”已下架：客户将看不到它。',
      cannot_delete_title: '无法删除',
      has_orders: '有 %{smart_count} 个订单引用了“%{name}”，因此不能删除：这些订单需要它。改为下架吗？客户将看不到它，已有订单保持不变。',
      has_orders_off_sale: '有 %{smart_count} 个订单引用了“%{name}”，因此不能删除；它已经下架，这样就够了。',
      delete_confirm: '永久删除商品“%{name}”？没有订单引用它；引用它的活动将不再包含它。',
      delete_title: '删除“%{name}”',
    },
    pay_points: {
      title: '用积分支付',
      confirm: '支付 %{smart_count} 积分（%{money}）购买%{what}？您的余额将从 %{balance} 积分变为 %{after} 积分。',
    },
  },
};
