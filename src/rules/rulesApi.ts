/**
 * A mailbox's rules (out-of-office and forwarding) as the API gives them, read and written from
 * whichever area shows them: the owner's own (/api/mail/rules/…) or a mailbox's page in the
 * customer or operator area (/api/{admin,manage}/email/…, with the mailbox's id).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAreaCall } from '../area/useAreaCall';

export type { Forwarding, OutOfOffice } from '../../resources/mailbox_rule';
import type { Forwarding, OutOfOffice } from '../../resources/mailbox_rule';

export interface Rules {
  out_of_office: OutOfOffice;
  forwarding: Forwarding;
  updated_at: string | null;
  updated_by: string | null;
}

/** Whose rules: the signed-in owner's, or a mailbox's by id (on its page, whose record may not be loaded yet). */
export type RulesOf = { own: true } | { id: number | string | undefined };

export function useRules(whose: RulesOf) {
  const call = useAreaCall();
  const queryClient = useQueryClient();
  const id = 'id' in whose ? whose.id : undefined;
  const own = 'own' in whose;
  const key = ['mailbox-rules', own ? 'own' : id];
  const query = useQuery({
    queryKey: key,
    queryFn: () => (own ? call<Rules>('GET', 'rules/info') : call<Rules>('GET', 'email/rules', { id })),
    enabled: own || id !== undefined,
  });
  const save = (what: 'out_of_office' | 'forwarding') => async (values: OutOfOffice | Forwarding) => {
    const answer = own ? await call('POST', `rules/update_${what}`, { ...values }) : await call('POST', `email/update_${what}`, { id, ...values });
    await queryClient.invalidateQueries({ queryKey: key });
    return answer;
  };
  return { ...query, saveOutOfOffice: save('out_of_office'), saveForwarding: save('forwarding') };
}
