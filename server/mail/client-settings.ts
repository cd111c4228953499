/**
 * How mail programs reach a mailbox (IMAP and SMTP submission on MAIL_HOSTNAME, ports from
 * MAIL_IMAP_PORT / MAIL_SUBMISSION_PORT / MAIL_SUBMISSIONS_PORT), and the documents with
 * which they configure themselves: Thunderbird's autoconfig (clientConfig v1.1), Outlook's
 * POX autodiscover (responseschema 2006a) and an Apple configuration profile.
 */
import crypto from 'node:crypto';
import type { Config } from '../config.js';

export type Security = 'ssl' | 'starttls';

export interface ServerSetting {
  protocol: 'imap' | 'smtp';
  host: string;
  port: number;
  security: Security;
}

export interface ClientSettings {
  address: string;
  /** The login name: the full address. */
  username: string;
  incoming: ServerSetting[];
  outgoing: ServerSetting[];
}

type PortConfig = Pick<Config, 'mailHostname' | 'mailImapPort' | 'mailSubmissionPort' | 'mailSubmissionsPort'>;

export function clientSettings(config: PortConfig, address: string): ClientSettings {
  const host = config.mailHostname;
  const outgoing: ServerSetting[] = [{ protocol: 'smtp', host, port: config.mailSubmissionPort, security: 'starttls' }];
  if (config.mailSubmissionsPort) outgoing.push({ protocol: 'smtp', host, port: config.mailSubmissionsPort, security: 'ssl' });
  return { address, username: address, incoming: [{ protocol: 'imap', host, port: config.mailImapPort, security: 'ssl' }], outgoing };
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** Thunderbird: https://wiki.mozilla.org/Thunderbird:Autoconfiguration:ConfigFileFormat */
export function thunderbirdConfig(settings: ClientSettings, domain: string): string {
  const server = (tag: 'incomingServer' | 'outgoingServer', s: ServerSetting) => `    <${tag} type="${s.protocol}">
      <hostname>${escapeXml(s.host)}</hostname>
      <port>${s.port}</port>
      <socketType>${s.security === 'ssl' ? 'SSL' : 'STARTTLS'}</socketType>
      <username>%EMAILADDRESS%</username>
      <authentication>password-cleartext</authentication>
    </${tag}>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<clientConfig version="1.1">
  <emailProvider id="${escapeXml(domain)}">
    <domain>${escapeXml(domain)}</domain>
    <displayName>${escapeXml(domain)}</displayName>
    <displayShortName>${escapeXml(domain)}</displayShortName>
${[...settings.incoming.map((s) => server('incomingServer', s)), ...settings.outgoing.map((s) => server('outgoingServer', s))].join('\n')}
  </emailProvider>
</clientConfig>
`;
}

export const AUTODISCOVER_REQUEST_SCHEMA = 'http://schemas.microsoft.com/exchange/autodiscover/outlook/requestschema/2006';
export const AUTODISCOVER_RESPONSE_SCHEMA = 'http://schemas.microsoft.com/exchange/autodiscover/responseschema/2006';
export const OUTLOOK_RESPONSE_SCHEMA = 'http://schemas.microsoft.com/exchange/autodiscover/outlook/responseschema/2006a';

/** Outlook's plain-old-XML autodiscover answer (MS-OXDISCO). */
export function autodiscoverResponse(settings: ClientSettings): string {
  const protocol = (s: ServerSetting) => `      <Protocol>
        <Type>${s.protocol.toUpperCase()}</Type>
        <Server>${escapeXml(s.host)}</Server>
        <Port>${s.port}</Port>
        <LoginName>${escapeXml(settings.username)}</LoginName>
        <DomainRequired>off</DomainRequired>
        <SPA>off</SPA>
        <SSL>on</SSL>
        <Encryption>${s.security === 'ssl' ? 'SSL' : 'TLS'}</Encryption>
        <AuthRequired>on</AuthRequired>${s.protocol === 'smtp' ? '\n        <UsePOPAuth>on</UsePOPAuth>' : ''}
      </Protocol>`;
  return `<?xml version="1.0" encoding="utf-8"?>
<Autodiscover xmlns="${AUTODISCOVER_RESPONSE_SCHEMA}">
  <Response xmlns="${OUTLOOK_RESPONSE_SCHEMA}">
    <User>
      <DisplayName>${escapeXml(settings.address)}</DisplayName>
    </User>
    <Account>
      <AccountType>email</AccountType>
      <Action>settings</Action>
${[settings.incoming[0], settings.outgoing[0]].map(protocol).join('\n')}
    </Account>
  </Response>
</Autodiscover>
`;
}

/** The address an autodiscover request asks about (<EMailAddress> of the POX request). */
export function autodiscoverAddress(body: string): string | undefined {
  return /<EMailAddress>\s*([^<\s]+)\s*<\/EMailAddress>/i.exec(body)?.[1];
}

/** A stable UUID per name (a re-downloaded profile replaces the installed one). */
const uuidOf = (name: string) => {
  const h = crypto.createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`.toUpperCase();
};

/** An Apple configuration profile (.mobileconfig) with one IMAP account (com.apple.mail.managed). */
export function appleProfile(settings: ClientSettings, displayName: string, identifierBase: string): string {
  const incoming = settings.incoming[0];
  const outgoing = settings.outgoing[0];
  const s = (v: string) => `<string>${escapeXml(v)}</string>`;
  const id = `${identifierBase}.${settings.address}`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>PayloadContent</key>
  <array>
    <dict>
      <key>EmailAccountDescription</key>${s(settings.address)}
      <key>EmailAccountName</key>${s(displayName || settings.address)}
      <key>EmailAccountType</key>${s('EmailTypeIMAP')}
      <key>EmailAddress</key>${s(settings.address)}
      <key>IncomingMailServerAuthentication</key>${s('EmailAuthPassword')}
      <key>IncomingMailServerHostName</key>${s(incoming.host)}
      <key>IncomingMailServerPortNumber</key><integer>${incoming.port}</integer>
      <key>IncomingMailServerUseSSL</key><true/>
      <key>IncomingMailServerUsername</key>${s(settings.username)}
      <key>OutgoingMailServerAuthentication</key>${s('EmailAuthPassword')}
      <key>OutgoingMailServerHostName</key>${s(outgoing.host)}
      <key>OutgoingMailServerPortNumber</key><integer>${outgoing.port}</integer>
      <key>OutgoingMailServerUseSSL</key><true/>
      <key>OutgoingMailServerUsername</key>${s(settings.username)}
      <key>OutgoingPasswordSameAsIncomingPassword</key><true/>
      <key>PayloadDisplayName</key>${s(settings.address)}
      <key>PayloadIdentifier</key>${s(`${id}.mail`)}
      <key>PayloadType</key>${s('com.apple.mail.managed')}
      <key>PayloadUUID</key>${s(uuidOf(`${id}.mail`))}
      <key>PayloadVersion</key><integer>1</integer>
    </dict>
  </array>
  <key>PayloadDisplayName</key>${s(settings.address)}
  <key>PayloadIdentifier</key>${s(id)}
  <key>PayloadRemovalDisallowed</key><false/>
  <key>PayloadType</key>${s('Configuration')}
  <key>PayloadUUID</key>${s(uuidOf(id))}
  <key>PayloadVersion</key><integer>1</integer>
</dict>
</plist>
`;
}
