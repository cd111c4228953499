/**
 * The reporting address: where every hosted domain's DMARC record (rua=) sends aggregate reports,
 * and the TLS-RPT record (_smtp._tls, server/domain-health) TLS reports. REPORTS_ADDRESS, by
 * default reports@<MAIL_HOSTNAME> (itself PUBLIC_URL's host by default). The mail server hands
 * mail for it to the panel (deploy/templates/reports.ts, `deploy:config --reports-address`).
 */
export function reportsAddressOf(value: string | undefined, mailHostname: string): string {
  const address = (value || `reports@${mailHostname}`).trim().toLowerCase();
  if (!/^[a-z0-9._+-]+@[a-z0-9.-]+$/.test(address)) throw new Error(`REPORTS_ADDRESS: expected an address such as reports@mail.example.net, got "${value}"`);
  return address;
}
