/** Money formatted in the area's language. */
import { useLocaleState } from 'react-admin';
import { formatMoney } from './formatMoney';

export function useMoney() {
  const [locale] = useLocaleState();
  return (minor: number, currency: string) => formatMoney(minor, currency, locale);
}
