/**
 * MAIL_HOSTNAME, the mail server every hosted domain's MX names: whether it can be published.
 * On its own, below the DNS records, because the configuration reads it too (the reporting
 * address's default is reports@<MAIL_HOSTNAME>, server/reports/address.ts).
 */
import net from 'node:net';

/**
 * Why MAIL_HOSTNAME cannot be published, if it cannot: an MX names a host, never an address,
 * and a host customers point at must be a fully qualified public name.
 */
export function mailHostnameProblem(hostname: string): 'ip' | 'not_a_name' | undefined {
  if (net.isIP(hostname.replace(/^\[|\]$/g, ''))) return 'ip';
  const labels = hostname.split('.');
  if (labels.length < 2 || labels.at(-1) === 'localhost' || /^\d+$/.test(labels.at(-1)!)) return 'not_a_name';
  if (!labels.every((l) => /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i.test(l))) return 'not_a_name';
  return undefined;
}
