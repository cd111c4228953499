/**
 * Mail copies as the API gives them, from whichever area shows them: a mailbox's page (customer and
 * operator areas, with its id), a domain's page, or the owner's own (/api/mail/mail_copy/…). While a
 * copy is unfinished the list is read again every two seconds: that is the progress bar.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAreaCall } from '../area/useAreaCall';

export interface MailCopy {
  id: number;
  mailbox_id: number;
  address: string;
  source_host: string;
  source_port: number;
  source_tls: 'tls' | 'starttls';
  source_user: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  total_messages: number;
  done_messages: number;
  copied_messages: number;
  folders: number;
  error: string | null;
  error_detail: string | null;
  created_at: string;
  finished_at: string | null;
}

export const unfinished = (copy: MailCopy) => copy.state === 'queued' || copy.state === 'running';

/** The latest copies of a mailbox (by id), of a domain, or the owner's own (nothing). */
export function useMailCopies(whose: { mailbox?: number; domain?: number }) {
  const call = useAreaCall();
  const queryClient = useQueryClient();
  const filter = whose.mailbox ? { mailbox_id: whose.mailbox } : whose.domain ? { domain_id: whose.domain } : {};
  const key = ['mail-copies', JSON.stringify(filter)];
  const query = useQuery({
    queryKey: key,
    queryFn: async () => (await call<{ list: MailCopy[] }>('GET', 'mail_copy/list', { filter: JSON.stringify(filter), page_size: 10 })).list,
    refetchInterval: (q) => (q.state.data?.some(unfinished) ? 2000 : false),
  });
  const start = async (values: Record<string, unknown>) => {
    const answer = whose.domain
      ? await call<{ list: MailCopy[] }>('POST', 'mail_copy/create_for_domain', { ...values, domain_id: whose.domain })
      : await call<MailCopy>('POST', 'mail_copy/create', { ...values, mailbox_id: whose.mailbox });
    await queryClient.invalidateQueries({ queryKey: key });
    return answer;
  };
  return { ...query, start };
}
