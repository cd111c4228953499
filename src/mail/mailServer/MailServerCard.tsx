/**
 * The mail server the customers' domains point at (MAIL_HOSTNAME, from the panel's
 * environment): whether it can be their MX (the notice the domains' DNS view shows operators),
 * its address in DNS looked up now, and what DNS it needs.
 */
import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { SectionCard } from '../../area/SectionCard';
import { useAreaCall } from '../../area/useAreaCall';

export interface MailServer {
  hostname: string;
  problem: 'ip' | 'not_a_name' | null;
  notice: { message: string; params: Record<string, string> } | null;
  addresses: { status: 'ok' | 'missing' | 'unchecked'; found: string[]; error?: string };
  imap_port: number;
  submission_port: number;
}

export function useMailServer() {
  const call = useAreaCall();
  return useQuery({ queryKey: ['mail_server', 'settings'], queryFn: () => call<MailServer>('POST', 'mail_server/settings') });
}

/** Named by a public host name that has an address: the domains' MX and SPF records can point at it. */
export const mailServerReady = (server: MailServer | undefined) => server?.problem === null && server.addresses.status === 'ok';

/** What is missing, as a text key and its params; nothing when the mail server is ready. */
export function mailServerGap(server: MailServer): [string, Record<string, string>] | undefined {
  if (server.notice) return [server.notice.message, server.notice.params];
  const { hostname } = server;
  if (server.addresses.status === 'missing') return ['app.mail_setup.addresses_missing', { hostname }];
  if (server.addresses.status === 'unchecked') return ['app.mail_setup.addresses_unchecked', { hostname, error: server.addresses.error ?? '' }];
  return undefined;
}

/**
 * What DNS the mail server needs: its A and PTR records when it has a public name; when it is named
 * by an address or a local name, that a real host name is needed first (records for 127.0.0.1 make no sense).
 */
export function hostnameAdvice(server: Pick<MailServer, 'hostname' | 'problem'>): [string, Record<string, string>] {
  const { hostname } = server;
  if (server.problem === 'ip') return ['app.mail_setup.hostname_needs_name', { hostname }];
  if (server.problem === 'not_a_name') return ['app.mail_setup.hostname_needs_public_name', { hostname }];
  return ['app.mail_setup.hostname_dns', { hostname }];
}

export function MailServerCard() {
  const translate = useTranslate();
  const { data } = useMailServer();
  const gap = data && mailServerGap(data);
  return (
    <SectionCard title="app.mail_setup.hostname_title" className="mail-server">
      {data && (
        <>
          <Typography variant="body2">
            {translate('app.mail_setup.hostname')}: <code className="mail-hostname">{data.hostname}</code>
          </Typography>
          {gap ? (
            <Alert severity="warning" sx={{ my: 1 }} className="mail-server-gap">
              {translate(gap[0], { _: gap[0], ...gap[1] })}
            </Alert>
          ) : (
            <Alert severity="success" sx={{ my: 1 }} className="mail-server-ready">
              {translate('app.mail_setup.addresses_ok', { hostname: data.hostname, addresses: data.addresses.found.join(', ') })}
            </Alert>
          )}
          <Typography variant="body2" color={data.problem ? 'text.primary' : 'text.secondary'} className="mail-server-dns">
            {translate(...hostnameAdvice(data))}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {translate('app.mail_setup.ports', { imap: data.imap_port, submission: data.submission_port })}
          </Typography>
        </>
      )}
    </SectionCard>
  );
}
