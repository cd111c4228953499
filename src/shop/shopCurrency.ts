/**
 * The shop currency (SHOP_CURRENCY) as the public product list says it, and how it is written:
 * its symbol in each language and the digits of its minor unit (CNY: ¥ / CN¥, 2: fen).
 */
import { useQuery } from '@tanstack/react-query';
import { publicApi } from '../api/clients';

export function useShopCurrency(): string {
  const { data } = useQuery({
    queryKey: ['shop-currency'],
    queryFn: () => publicApi<{ currency?: string }>({ method: 'POST', path: '/api/product/list', params: { page: 1, page_size: 1 }, silent: true }),
    staleTime: Infinity,
  });
  return data?.currency ?? 'CNY';
}

const intlLocale = (locale: string) => (locale === 'zh' ? 'zh-CN' : 'en-US');

/** Digits after the point of the currency's main unit (CNY 2, JPY 0). */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** The currency's symbol as the language writes it (zh: ¥, en: CN¥). */
export function currencySymbol(currency: string, locale: string): string {
  return new Intl.NumberFormat(intlLocale(locale), { style: 'currency', currency }).formatToParts(0).find((p) => p.type === 'currency')?.value ?? currency;
}

/** The currency's name in the language (人民币, Chinese Yuan). */
export function currencyName(currency: string, locale: string): string {
  try {
    return new Intl.DisplayNames([intlLocale(locale)], { type: 'currency' }).of(currency) ?? currency;
  } catch {
    return currency;
  }
}

/** Minor units from an amount typed in the main unit ("99", "99.5", "99.50"); undefined when it is not one. */
export function minorFromTyped(text: string, digits: number): number | undefined {
  const pattern = digits > 0 ? new RegExp(`^\\d{1,12}(\\.\\d{0,${digits}})?$`) : /^\d{1,15}$/;
  const clean = text.trim().replace(/,/g, '');
  if (!pattern.test(clean)) return undefined;
  const [whole, fraction = ''] = clean.split('.');
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || 0);
}

/** The main-unit text of minor units, with all its decimals (9900 → "99.00"). */
export function typedFromMinor(minor: number, digits: number): string {
  return digits > 0 ? (minor / 10 ** digits).toFixed(digits) : String(minor);
}
