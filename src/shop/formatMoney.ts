/** Money in the shop currency's minor unit, as the reader's language writes it (¥7.50, CN¥7.50). Free of react-admin: the public pages use it. */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const format = new Intl.NumberFormat(locale === 'zh' ? 'zh-CN' : 'en-US', { style: 'currency', currency: currency || 'CNY' });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(Number(minor) / 10 ** digits);
}
