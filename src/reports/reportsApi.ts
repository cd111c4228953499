/** A domain's DMARC and TLS reports, its DMARC policy, and the operators' summary, as the API gives them (either area). */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAreaCall } from '../area/useAreaCall';

export type Policy = 'none' | 'quarantine' | 'reject';
export type AdviceKind = 'spf_missing' | 'dkim_missing' | 'forwarded' | 'unauthorised';

export interface ReceivedReport {
  id: number;
  org_name: string;
  report_id: string;
  begin_at: string;
  end_at: string;
  messages: number;
  failed: number;
  received_at: string;
}

export interface DmarcReportView {
  days: { day: string; messages: number; dkim_aligned: number; spf_aligned: number; pass: number; fail: number }[];
  totals: { messages: number; pass: number; fail: number; share_failing: number };
  sources: { organisation: string; messages: number; pass: number; fail: number; dkim_aligned: number; spf_aligned: number; sources: { ip: string; ptr: string; messages: number; fail: number }[] }[];
  advice: { kind: AdviceKind; organisation: string; messages: number; ips: string[]; spf_addition?: string }[];
  policy: { chosen: Policy | null; current: Policy; record: string; options: { policy: Policy; affected: number; share: number; forwarded: number }[] };
  reports: ReceivedReport[];
}

export interface TlsReportView {
  days: { day: string; successful: number; failed: number }[];
  totals: { successful: number; failed: number; share_failed: number };
  failures: { receiving_mx: string; result_type: string; sessions: number }[];
  reports: ReceivedReport[];
}

export interface ReportsSummary {
  days: { day: string; messages: number; fail: number; tls_successful: number; tls_failed: number }[];
  domains: { domain_id: number; name: string; name_unicode: string; kind: 'dmarc' | 'tls'; messages: number; failed: number; reports: number }[];
  refused: { total: number; latest: { id: number; received_at: string; reason: string; detail: string; params: Record<string, string | number> }[] };
}

export const REPORT_DAYS = 30;

export function useDmarcReport(domainId: number | undefined) {
  const call = useAreaCall();
  return useQuery({ queryKey: ['reports-dmarc', domainId], queryFn: () => call<DmarcReportView>('GET', 'reports/dmarc', { domain_id: domainId, days: REPORT_DAYS }), enabled: domainId !== undefined });
}

export function useTlsReport(domainId: number | undefined) {
  const call = useAreaCall();
  return useQuery({ queryKey: ['reports-tls', domainId], queryFn: () => call<TlsReportView>('GET', 'reports/tls', { domain_id: domainId, days: REPORT_DAYS }), enabled: domainId !== undefined });
}

export function useUpdatePolicy(domainId: number) {
  const call = useAreaCall();
  const queryClient = useQueryClient();
  return async (policy: Policy) => {
    const answer = await call<{ record: { host: string; value: string } }>('POST', 'reports/update_policy', { domain_id: domainId, policy });
    await queryClient.invalidateQueries({ queryKey: ['reports-dmarc', domainId] });
    return answer;
  };
}

export function useReportsSummary() {
  const call = useAreaCall();
  return useQuery({ queryKey: ['reports-summary'], queryFn: () => call<ReportsSummary>('GET', 'reports/summary', { days: REPORT_DAYS }) });
}
