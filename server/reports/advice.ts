/**
 * Advice in plain words from what receivers reported about a domain's senders: a source that
 * looks legitimate but fails (a service signing with DKIM but missing from SPF; a service sending
 * without the domain's DKIM key; a forwarder or mailing list that broke the signature), or one
 * that fails everything (not authorised: possibly someone impersonating the domain). Each item
 * names the source, its messages, and what to change; the screens translate it (zh, en).
 */
import net from 'node:net';

export type AdviceKind = 'spf_missing' | 'dkim_missing' | 'forwarded' | 'unauthorised';

export interface SourceResults {
  ip: string;
  organisation: string;
  messages: number;
  dkim: 'pass' | 'fail';
  spf: 'pass' | 'fail';
  dkimResults: string;
  spfResults: string;
}

export interface Advice {
  kind: AdviceKind;
  organisation: string;
  messages: number;
  ips: string[];
  /** spf_missing: the mechanisms to add to the SPF record ("ip4:203.0.113.5"). */
  spf_addition?: string;
}

/** Whether a results list ("d1=pass d2=fail") has this domain (or a subdomain) with one of these results. */
function has(results: string, domain: string, outcomes: RegExp) {
  return results.split(' ').some((pair) => {
    const [d, result] = pair.split('=');
    return (d === domain || d.endsWith(`.${domain}`)) && outcomes.test(result ?? '');
  });
}

export function kindOf(source: SourceResults, domain: string): AdviceKind | undefined {
  if (source.dkim === 'pass' && source.spf === 'fail') return has(source.spfResults, domain, /^(fail|softfail|neutral|none|permerror)$/) ? 'spf_missing' : undefined;
  if (source.dkim === 'fail' && source.spf === 'pass') return 'dkim_missing';
  if (source.dkim === 'fail' && source.spf === 'fail') return has(source.dkimResults, domain, /^(fail|permerror|temperror)$/) ? 'forwarded' : 'unauthorised';
  return undefined;
}

const mechanism = (ip: string) => (net.isIPv6(ip) ? `ip6:${ip}` : `ip4:${ip}`);

/** One item per (kind, organisation), most messages first; at most `limit`. */
export function adviceFor(sources: SourceResults[], domain: string, limit = 10): Advice[] {
  const items = new Map<string, Advice>();
  for (const source of sources) {
    const kind = kindOf(source, domain);
    if (!kind) continue;
    const key = `${kind} ${source.organisation}`;
    const item = items.get(key) ?? { kind, organisation: source.organisation, messages: 0, ips: [] };
    item.messages += source.messages;
    if (!item.ips.includes(source.ip) && item.ips.length < 5) item.ips.push(source.ip);
    items.set(key, item);
  }
  const list = [...items.values()].sort((a, b) => b.messages - a.messages).slice(0, limit);
  for (const item of list) if (item.kind === 'spf_missing') item.spf_addition = item.ips.map(mechanism).join(' ');
  return list;
}
