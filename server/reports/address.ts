/**
 * The reporting address: where every hosted domain's DMARC record (rua=) sends aggregate reports,
 * and the TLS-RPT record (_smtp._tls, server/domain-health) TLS reports. REPORTS_ADDRESS, by
 * default reports@<MAIL_HOSTNAME> (itself PUBLIC_URL's host by default); '' while MAIL_HOSTNAME
 * cannot be published (an address, localhost) and none is set: the DMARC record then names no
 * reporting address. The mail server hands mail for it to the panel (deploy/templates/reports.ts,
 * `deploy:config --reports-address`, the same default).
 */
import { mailHostnameProblem } from '../mail/mail-hostname.js';

export function reportsAddressOf(value: string | undefined, mailHostname: string): string {
  if (!value && mailHostnameProblem(mailHostname)) return '';
  const address = (value || `reports@${mailHostname}`).trim().toLowerCase();
  if (!/^[a-z0-9._+-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(address)) throw new Error(`REPORTS_ADDRESS: expected an address such as reports@mail.example.net, got "${value}"`);
  return address;
}
