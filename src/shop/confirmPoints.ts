/**
 * Points are money: before an order is paid from the balance, the customer sees how many points
 * it takes, what that is worth, what it buys and the balance after, and says yes.
 */
import { useLocaleState, useTranslate } from 'react-admin';
import { confirm } from '../dialogs/store';
import { formatMoney } from './formatMoney';
import { usePointsBalance } from './PointsCard';

export function useConfirmPayWithPoints() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { data: balance } = usePointsBalance();
  /** `what`: the product as the customer reads it ("Storage 1 GB: 1 GiB for 12 months"). */
  return (amount: number, currency: string, what: string): Promise<boolean> => {
    const args = { smart_count: amount, money: formatMoney(amount, currency, locale), what, balance: balance?.balance ?? '—', after: balance ? balance.balance - amount : '—' };
    return confirm(translate('app.pay_points.confirm', args), translate('app.pay_points.title'));
  };
}
