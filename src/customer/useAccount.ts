/** The signed-in customer login (/api/admin/me/info), shared by the dashboard and the profile. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountInfo } from '../authProvider/customer';
import { useAreaCall } from '../area/useAreaCall';

const key = ['me', 'info'];

export function useAccount() {
  const call = useAreaCall();
  return useQuery({ queryKey: key, queryFn: () => call<AccountInfo>('POST', 'me/info') });
}

/** After a change of one's own account: the answer is the new account. */
export function useSetAccount() {
  const queryClient = useQueryClient();
  return (account: AccountInfo) => queryClient.setQueryData(key, account);
}
