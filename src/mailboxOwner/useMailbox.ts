/** The signed-in mailbox (GET /api/mail/me/info), shared by the overview and the settings page. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { MailboxInfo } from '../authProvider/mailbox';
import { useAreaCall } from '../area/useAreaCall';

const key = ['me', 'info'];

export function useMailbox() {
  const call = useAreaCall();
  return useQuery({ queryKey: key, queryFn: () => call<MailboxInfo>('GET', 'me/info') });
}

/** After a change of the mailbox's own settings: read it again. */
export function useRefreshMailbox() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: key });
}
