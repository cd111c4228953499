/**
 * Spam settings, sender lists, held mailboxes and a domain's figures as the API gives them, from
 * whichever area shows them: the owner's own (/api/mail/spam/…), or a domain's or a mailbox's page
 * in the customer or operator area (/api/{admin,manage}/spam/…, with its id).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAreaCall } from '../area/useAreaCall';
import type { SpamFilterChoice, SpamSettings } from '../../resources/spam';

export type { SpamSettings };

/** Whose settings: the signed-in owner's, or a domain's or a mailbox's by id. */
export type SpamOf = { own: true } | { domain: number | string | undefined } | { mailbox: number | string | undefined };

export interface SettingsInput {
  filter: SpamFilterChoice;
  junk_score?: number;
  reject_score?: number;
}

const idOf = (whose: SpamOf) => ('domain' in whose ? whose.domain : 'mailbox' in whose ? whose.mailbox : undefined);

export function useSpamSettings(whose: SpamOf) {
  const call = useAreaCall();
  const queryClient = useQueryClient();
  const kind = 'own' in whose ? 'own' : 'domain' in whose ? 'domain' : 'mailbox';
  const id = idOf(whose);
  const key = ['spam-settings', kind, id];
  const query = useQuery({
    queryKey: key,
    queryFn: () => (kind === 'own' ? call<SpamSettings>('GET', 'spam/info') : call<SpamSettings>('GET', `spam/${kind}`, { id })),
    enabled: kind === 'own' || id !== undefined,
  });
  const save = async (values: SettingsInput) => {
    const answer = kind === 'own' ? await call<SpamSettings>('POST', 'spam/update', { ...values }) : await call<SpamSettings>('POST', `spam/update_${kind}`, { id, ...values });
    await queryClient.invalidateQueries({ queryKey: key });
    return answer;
  };
  return { ...query, save };
}

export interface SenderEntry {
  id: number;
  sender: string;
  action: 'allow' | 'block';
  domain_id: number;
  mailbox_id: number | null;
  created_at: string;
}

/** A list's entries: the owner's own, a domain's (mailbox_id empty) or a mailbox's. */
export function useSenderList(whose: SpamOf, domainId?: number) {
  const call = useAreaCall();
  const queryClient = useQueryClient();
  const own = 'own' in whose;
  const filter = 'domain' in whose ? { domain_id: whose.domain } : 'mailbox' in whose ? { mailbox_id: whose.mailbox } : {};
  const key = ['spam-list', JSON.stringify(filter)];
  const query = useQuery({
    queryKey: key,
    queryFn: async () => {
      const answer = await call<{ list: SenderEntry[] }>('GET', 'spam_list/list', { filter: JSON.stringify(filter), page_size: 100 });
      // A domain's own list: the entries of no particular mailbox.
      return 'domain' in whose ? answer.list.filter((e) => e.mailbox_id === null) : answer.list;
    },
    enabled: own || idOf(whose) !== undefined,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const add = async (sender: string, action: 'allow' | 'block') => {
    const place = own ? {} : 'domain' in whose ? { domain_id: whose.domain } : { domain_id: domainId, mailbox_id: idOf(whose) };
    await call('POST', 'spam_list/create', { ...place, sender, action });
    await refresh();
  };
  const remove = async (id: number) => {
    await call('POST', 'spam_list/delete', { id });
    await refresh();
  };
  return { ...query, add, remove };
}

export interface HeldMailbox {
  mailbox_id: number;
  address: string;
  reason: 'spam' | 'rate';
  detail: string;
  held_at: string;
}

export function useHeldMailboxes() {
  const call = useAreaCall();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ['spam-held'], queryFn: () => call<{ list: HeldMailbox[] }>('GET', 'spam/held') });
  const release = async (mailboxId: number) => {
    await call('POST', 'spam/release', { mailbox_id: mailboxId });
    await queryClient.invalidateQueries({ queryKey: ['spam-held'] });
  };
  return { ...query, release };
}

export interface SpamDay {
  day: string;
  received: number;
  junked: number;
  rejected: number;
}

export function useSpamStats(domainId: number | string | undefined, days = 30) {
  const call = useAreaCall();
  return useQuery({
    queryKey: ['spam-stats', domainId, days],
    queryFn: () => call<{ days: SpamDay[] }>('GET', 'spam/stats', { domain_id: domainId, days }),
    enabled: domainId !== undefined,
  });
}
