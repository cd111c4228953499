/**
 * The rules of server/mail's domain half that are plain functions, at their edges: domain names and
 * addresses (lengths, IDN, trailing dot, case), the mail server's name, the MTA-STS policy text, DKIM
 * selectors and keys, the records proposed for a domain, and the documents mail programs read
 * (Thunderbird autoconfig, Outlook autodiscover, the Apple profile) byte for byte.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fixtureDkimKeys } from '../helpers/app.js';
import { dkimKeyPair, selectorOf, takeDkimKeysFrom } from '../../server/mail/dkim.js';
import { asciiDomain, mailAddress, unicodeDomain } from '../../server/mail/names.js';
import { mailHostnameProblem } from '../../server/mail/mail-hostname.js';
import { MTA_STS_MAX_AGE, mtaStsHost, mtaStsPolicy, mtaStsPolicyId, tlsRptValue } from '../../server/mail/mta-sts.js';
import { appleProfile, autodiscoverAddress, autodiscoverResponse, clientSettings, thunderbirdConfig } from '../../server/mail/client-settings.js';
import { clientRecords, isClientRecord, judgeClientRecord, panelHostOf } from '../../server/mail/client-dns-records.js';
import { dkimRecord, dmarcValue, expectedRecords, mailServerNotice, mtaStsOf } from '../../server/mail/dns-records.js';

const label = (n: number, c = 'a') => c.repeat(n);

describe('domain names (names.ts)', () => {
  it('When a label has 63 characters, then the name is taken; with 64, it is not', () => {
    expect(asciiDomain(`${label(63)}.example`)).toBe(`${label(63)}.example`);
    expect(asciiDomain(`${label(64)}.example`)).toBeUndefined();
  });

  it('When the whole name has 253 characters, then it is taken; with 254, it is not (a trailing dot not counted)', () => {
    const name253 = [label(63), label(63), label(63), label(61)].join('.');
    expect(name253).toHaveLength(253);
    expect(asciiDomain(name253)).toBe(name253);
    expect(asciiDomain(`${name253}.`)).toBe(name253);
    expect(asciiDomain([label(63), label(63), label(63), label(62)].join('.'))).toBeUndefined();
    // 231 characters of Unicode, 255 in punycode (each label 63: only the whole is too long).
    const umlauts = 'ü'.repeat(57);
    expect(asciiDomain(`${umlauts}.example`)).toMatch(/^xn--[a-z0-9]{59}\.example$/);
    expect(asciiDomain([umlauts, umlauts, umlauts, umlauts].join('.'))).toBeUndefined();
  });

  it('When a name is typed with spaces around, upper case or a trailing dot, then its plain form is kept', () => {
    expect(asciiDomain('  Shop.Example.COM.  ')).toBe('shop.example.com');
    expect(asciiDomain('Bücher.Example')).toBe('xn--bcher-kva.example');
    expect(asciiDomain('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
    expect(unicodeDomain('xn--bcher-kva.example')).toBe('bücher.example');
    expect(unicodeDomain('plain.example')).toBe('plain.example');
  });

  it('When a name has one label, a hyphen at a label edge, a numeric top label, or text a URL parser would cut, then it is refused', () => {
    for (const bad of ['example', '-shop.example', 'shop-.example', 'shop.-x', 'x.123', 'a.b.123', 'a_b.example', 'ex..com', '', '   ', 'a\tb.example', 'a\nb.example', 'b.example/x', 'b.example\\x', 'b.example:25', 'user@b.example']) {
      expect(asciiDomain(bad), JSON.stringify(bad)).toBeUndefined();
    }
    // Two labels are enough; a top label of letters and digits is a name.
    for (const good of ['a.b', 'x.a1', 'x.1a', 'mid-dle.example', '1.example']) expect(asciiDomain(good), good).toBe(good);
  });
});

describe('addresses (names.ts mailAddress)', () => {
  const domain189 = [label(63, 'd'), label(63, 'd'), label(61, 'd')].join('.');

  it('When an address has a local part of 64 characters and 254 in all, then it is one; one more, and it is not', () => {
    expect(mailAddress(`${label(64)}@x.example`)?.ascii).toBe(`${label(64)}@x.example`);
    expect(mailAddress(`${label(65)}@x.example`)).toBeUndefined();
    expect(`${label(64)}@${domain189}`).toHaveLength(254);
    expect(mailAddress(`${label(64)}@${domain189}`)?.ascii).toBe(`${label(64)}@${domain189}`);
    expect(mailAddress(`${label(64)}@${domain189}d`)).toBeUndefined();
  });

  it('When an address has no local part, no @, or a bad domain, then it is not one; a one-letter local part is', () => {
    for (const bad of ['@x.example', 'x.example', 'a@localhost', 'a b@x.example', '.a@x.example']) expect(mailAddress(bad), bad).toBeUndefined();
    expect(mailAddress('a@x.example')).toEqual({ ascii: 'a@x.example', unicode: 'a@x.example' });
  });

  it('When an address is typed in capitals with a Unicode domain, then it is lower case, punycode and Unicode', () => {
    expect(mailAddress('  Anna@Bücher.Example ')).toEqual({ ascii: 'anna@xn--bcher-kva.example', unicode: 'anna@bücher.example' });
  });
});

describe('the mail server name (mail-hostname.ts)', () => {
  it('When MAIL_HOSTNAME is an address, in brackets or not, then the problem is "ip"', () => {
    for (const ip of ['192.0.2.10', '2001:db8::25', '[2001:db8::25]']) expect(mailHostnameProblem(ip), ip).toBe('ip');
  });

  it('When it is one label, localhost, a numeric top label, or a bad label, then it is "not a name"', () => {
    for (const bad of ['mx', 'localhost', 'mail.localhost', 'mx.123', '-mx.example.net', 'mx-.example.net', `${label(64)}.example.net`, 'mx_1.example.net', 'mx..example.net']) {
      expect(mailHostnameProblem(bad), bad).toBe('not_a_name');
    }
  });

  it('When it is a public name, in any case, with a 63-character label, then there is no problem', () => {
    for (const good of ['a.b', 'MX.Example.NET', `${label(63)}.example.net`, 'mx-1.example.net']) expect(mailHostnameProblem(good), good).toBeUndefined();
  });
});

describe('MTA-STS and TLS reporting (mta-sts.ts)', () => {
  it('When the policy is written, then it is the RFC 8461 text, CRLF-separated, a week long, naming the mail server', () => {
    expect(MTA_STS_MAX_AGE).toBe(604800);
    expect(mtaStsPolicy('testing', 'mx.maildesk.test')).toBe('version: STSv1\r\nmode: testing\r\nmx: mx.maildesk.test\r\nmax_age: 604800\r\n');
    expect(mtaStsPolicy('enforce', 'mx.other.test')).toBe('version: STSv1\r\nmode: enforce\r\nmx: mx.other.test\r\nmax_age: 604800\r\n');
  });

  it('When the policy text changes, then its id changes: 20 hexadecimal characters of its SHA-256', () => {
    const policy = mtaStsPolicy('testing', 'mx.maildesk.test');
    expect(mtaStsPolicyId(policy)).toBe(crypto.createHash('sha256').update(policy).digest('hex').slice(0, 20));
    expect(mtaStsPolicyId(policy)).toMatch(/^[0-9a-f]{20}$/);
    expect(mtaStsPolicyId(mtaStsPolicy('enforce', 'mx.maildesk.test'))).not.toBe(mtaStsPolicyId(policy));
    expect(mtaStsOf({}, 'mx.maildesk.test')).toEqual({ mode: 'testing', policy, id: mtaStsPolicyId(policy) });
    expect(mtaStsOf({ mta_sts_mode: 'enforce' }, 'mx.maildesk.test').mode).toBe('enforce');
  });

  it('When the host and the TLS-RPT value are named, then they are mta-sts.<domain> and a mailto of the reporting address', () => {
    expect(mtaStsHost('shop.example')).toBe('mta-sts.shop.example');
    expect(tlsRptValue({ reportsAddress: 'reports@mx.maildesk.test' })).toBe('v=TLSRPTv1; rua=mailto:reports@mx.maildesk.test');
  });
});

describe('DKIM keys and selectors (dkim.ts)', () => {
  it('When a selector is made, then it names the key’s month in UTC, two digits; a rotation adds a random tail', () => {
    expect(selectorOf(new Date(Date.UTC(2026, 0, 31, 23, 59)))).toBe('md202601');
    expect(selectorOf(new Date(Date.UTC(2025, 11, 1)))).toBe('md202512');
    expect(selectorOf(new Date(Date.UTC(2025, 11, 1)), false)).toBe('md202512');
    expect(selectorOf(new Date(Date.UTC(2026, 8, 9)), true)).toMatch(/^md202609-[0-9a-f]{4}$/);
  });

  it('When a key pair is generated as in production, then it is 2048-bit RSA, the public key SPKI PEM, the private key PKCS#8 PEM', async () => {
    takeDkimKeysFrom();
    const key = await dkimKeyPair().finally(() => takeDkimKeysFrom(fixtureDkimKeys));
    expect(key.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(key.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(crypto.createPublicKey(key.publicKey).asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(crypto.createPrivateKey(key.privateKey).asymmetricKeyType).toBe('rsa');
  });

  it('When the DKIM record is proposed, then it sits at <selector>._domainkey and carries the key without PEM armour or line breaks', async () => {
    const key = await fixtureDkimKeys();
    const der = crypto.createPublicKey(key.publicKey).export({ type: 'spki', format: 'der' }).toString('base64');
    expect(dkimRecord('shop.example', 'md202601', key.publicKey)).toEqual({ host: 'md202601._domainkey.shop.example', value: `v=DKIM1; k=rsa; p=${der}` });
  });
});

describe('the records proposed for a domain (dns-records.ts)', () => {
  const key = { publicKey: '-----BEGIN PUBLIC KEY-----\nAAAA\nBBBB\n-----END PUBLIC KEY-----\n' };
  const domain = { name: 'shop.example', verify_token: 'tok', dkim_selector: 'md202601', dkim_public_key: key.publicKey };
  const config = { mailHostname: 'mx.maildesk.test', publicUrl: 'https://panel.maildesk.test', reportsAddress: 'reports@mx.maildesk.test' };
  const id = mtaStsOf({}, 'mx.maildesk.test').id;

  it('When the mail server can be published, then every record is proposed, in order, with its value', () => {
    expect(expectedRecords(domain, config)).toEqual([
      { kind: 'verification', type: 'TXT', host: '_maildesk.shop.example', value: 'maildesk-verification=tok' },
      { kind: 'mx', type: 'MX', host: 'shop.example', value: 'mx.maildesk.test', priority: 10 },
      { kind: 'spf', type: 'TXT', host: 'shop.example', value: 'v=spf1 mx a:mx.maildesk.test ~all' },
      { kind: 'dkim', type: 'TXT', host: 'md202601._domainkey.shop.example', value: 'v=DKIM1; k=rsa; p=AAAABBBB' },
      { kind: 'dmarc', type: 'TXT', host: '_dmarc.shop.example', value: 'v=DMARC1; p=none; rua=mailto:reports@mx.maildesk.test' },
      { kind: 'mta_sts', type: 'TXT', host: '_mta-sts.shop.example', value: `v=STSv1; id=${id}` },
      { kind: 'mta_sts_host', type: 'CNAME', host: 'mta-sts.shop.example', value: 'panel.maildesk.test' },
      { kind: 'tls_rpt', type: 'TXT', host: '_smtp._tls.shop.example', value: 'v=TLSRPTv1; rua=mailto:reports@mx.maildesk.test' },
    ]);
  });

  it('When a next key is half there (a selector without a key, or a key without a selector), then no next record; with both, it follows the current one', () => {
    const kinds = (d: object) => expectedRecords({ ...domain, ...d }, config).map((r) => r.kind);
    expect(kinds({ dkim_next_selector: 'md202602-abcd', dkim_next_public_key: null })).not.toContain('dkim_next');
    expect(kinds({ dkim_next_selector: null, dkim_next_public_key: key.publicKey })).not.toContain('dkim_next');
    const records = expectedRecords({ ...domain, dkim_next_selector: 'md202602-abcd', dkim_next_public_key: '-----BEGIN PUBLIC KEY-----\nCCCC\n-----END PUBLIC KEY-----' }, config);
    expect(records.map((r) => r.kind).slice(3, 5)).toEqual(['dkim', 'dkim_next']);
    expect(records[4]).toEqual({ kind: 'dkim_next', type: 'TXT', host: 'md202602-abcd._domainkey.shop.example', value: 'v=DKIM1; k=rsa; p=CCCC' });
  });

  it('When there is no reporting address, then DMARC names none and there is no TLS-RPT record; the chosen policy is published', () => {
    const records = expectedRecords({ ...domain, dmarc_policy: 'reject', mta_sts_mode: 'enforce' }, { ...config, reportsAddress: '' });
    expect(records.map((r) => r.kind)).toEqual(['verification', 'mx', 'spf', 'dkim', 'dmarc', 'mta_sts', 'mta_sts_host']);
    expect(records.find((r) => r.kind === 'dmarc')?.value).toBe('v=DMARC1; p=reject');
    expect(records.find((r) => r.kind === 'mta_sts')?.value).toBe(`v=STSv1; id=${mtaStsOf({ mta_sts_mode: 'enforce' }, 'mx.maildesk.test').id}`);
    expect(dmarcValue(null, 'r@x.example')).toBe('v=DMARC1; p=none; rua=mailto:r@x.example');
    expect(dmarcValue('quarantine', '')).toBe('v=DMARC1; p=quarantine');
  });

  it('When MAIL_HOSTNAME cannot be an MX, then only verification, DKIM and DMARC are proposed, and each area gets its notice', () => {
    expect(expectedRecords(domain, { ...config, mailHostname: '192.0.2.1' }).map((r) => r.kind)).toEqual(['verification', 'dkim', 'dmarc']);
    expect(mailServerNotice('192.0.2.1', 'manage')).toEqual({ message: 'dns.mail_hostname_invalid', params: { hostname: '192.0.2.1' } });
    expect(mailServerNotice('localhost', 'admin')).toEqual({ message: 'dns.mail_server_pending', params: {} });
    expect(mailServerNotice('mx.maildesk.test', 'manage')).toBeNull();
    expect(mailServerNotice('mx.maildesk.test', 'admin')).toBeNull();
  });
});

describe('records for mail programs (client-dns-records.ts)', () => {
  const config = { publicUrl: 'https://Panel.Maildesk.TEST:8443/x', mailHostname: 'mx.maildesk.test', mailImapPort: 993, mailSubmissionPort: 587, mailSubmissionsPort: 0 };

  it('When the panel is reached by name, then CNAMEs name it in lower case; by an address (v4 or v6), then the mail host', () => {
    expect(panelHostOf(config)).toBe('panel.maildesk.test');
    expect(panelHostOf({ ...config, publicUrl: 'http://192.0.2.7:8080' })).toBe('mx.maildesk.test');
    expect(panelHostOf({ ...config, publicUrl: 'http://[2001:db8::7]:8080' })).toBe('mx.maildesk.test');
  });

  it('When no SMTPS port is set, then five records; with one, a sixth for it', () => {
    expect(clientRecords('shop.example', config)).toEqual([
      { kind: 'autoconfig', type: 'CNAME', host: 'autoconfig.shop.example', value: 'panel.maildesk.test' },
      { kind: 'autodiscover', type: 'CNAME', host: 'autodiscover.shop.example', value: 'panel.maildesk.test' },
      { kind: 'autodiscover_srv', type: 'SRV', host: '_autodiscover._tcp.shop.example', value: '0 1 443 panel.maildesk.test' },
      { kind: 'imaps_srv', type: 'SRV', host: '_imaps._tcp.shop.example', value: '0 1 993 mx.maildesk.test' },
      { kind: 'submission_srv', type: 'SRV', host: '_submission._tcp.shop.example', value: '0 1 587 mx.maildesk.test' },
    ]);
    expect(clientRecords('shop.example', { ...config, mailSubmissionsPort: 465 }).at(-1)).toEqual({ kind: 'submissions_srv', type: 'SRV', host: '_submissions._tcp.shop.example', value: '0 1 465 mx.maildesk.test' });
  });

  it('When an SRV answer has other priority and weight, then it is right; another port or target, wrong; a CNAME must name the panel', () => {
    const [cname, , , imaps] = clientRecords('shop.example', config);
    expect(judgeClientRecord(imaps, ['10 5 993 mx.maildesk.test'])).toEqual({ relevant: ['10 5 993 mx.maildesk.test'], ok: true });
    expect(judgeClientRecord(imaps, ['0 1 143 mx.maildesk.test']).ok).toBe(false);
    expect(judgeClientRecord(imaps, ['0 1 993 mx.other.test']).ok).toBe(false);
    expect(judgeClientRecord(imaps, ['0 1 143 mx.maildesk.test', '5 5 993 mx.maildesk.test']).ok).toBe(true);
    expect(judgeClientRecord(cname, ['elsewhere.test', 'panel.maildesk.test'])).toEqual({ relevant: ['elsewhere.test', 'panel.maildesk.test'], ok: true });
    expect(judgeClientRecord(cname, ['elsewhere.test']).ok).toBe(false);
    expect([isClientRecord({ type: 'CNAME' }), isClientRecord({ type: 'SRV' }), isClientRecord({ type: 'TXT' }), isClientRecord({ type: 'MX' })]).toEqual([true, true, false, false]);
  });
});

describe('what mail programs are given (client-settings.ts)', () => {
  const ports = { mailHostname: 'mx.maildesk.test', mailImapPort: 993, mailSubmissionPort: 587, mailSubmissionsPort: 0 };

  it('When no SMTPS port is set, then only submission with STARTTLS goes out; with one, SMTPS too', () => {
    expect(clientSettings(ports, 'anna@shop.example')).toEqual({
      address: 'anna@shop.example',
      username: 'anna@shop.example',
      incoming: [{ protocol: 'imap', host: 'mx.maildesk.test', port: 993, security: 'ssl' }],
      outgoing: [{ protocol: 'smtp', host: 'mx.maildesk.test', port: 587, security: 'starttls' }],
    });
    expect(clientSettings({ ...ports, mailSubmissionsPort: 465 }, 'a@b.example').outgoing[1]).toEqual({ protocol: 'smtp', host: 'mx.maildesk.test', port: 465, security: 'ssl' });
  });

  it('When Thunderbird’s document is written, then it is clientConfig 1.1 with every server, and markup in names is escaped', () => {
    const settings = clientSettings({ ...ports, mailHostname: `mx<&>'".test`, mailSubmissionsPort: 465 }, 'anna@shop.example');
    const server = (tag: string, type: string, port: number, socket: string) => `    <${tag} type="${type}">
      <hostname>mx&lt;&amp;&gt;&apos;&quot;.test</hostname>
      <port>${port}</port>
      <socketType>${socket}</socketType>
      <username>%EMAILADDRESS%</username>
      <authentication>password-cleartext</authentication>
    </${tag}>`;
    expect(thunderbirdConfig(settings, `shop"<x>.example`)).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<clientConfig version="1.1">
  <emailProvider id="shop&quot;&lt;x&gt;.example">
    <domain>shop&quot;&lt;x&gt;.example</domain>
    <displayName>shop&quot;&lt;x&gt;.example</displayName>
    <displayShortName>shop&quot;&lt;x&gt;.example</displayShortName>
${server('incomingServer', 'imap', 993, 'SSL')}
${server('outgoingServer', 'smtp', 587, 'STARTTLS')}
${server('outgoingServer', 'smtp', 465, 'SSL')}
  </emailProvider>
</clientConfig>
`);
  });

  it('When Outlook’s answer is written, then it names IMAP over SSL and submission over TLS, the login name escaped', () => {
    const settings = clientSettings({ ...ports, mailSubmissionsPort: 465 }, `o'neil&co@shop.example`);
    expect(autodiscoverResponse(settings)).toBe(`<?xml version="1.0" encoding="utf-8"?>
<Autodiscover xmlns="http://schemas.microsoft.com/exchange/autodiscover/responseschema/2006">
  <Response xmlns="http://schemas.microsoft.com/exchange/autodiscover/outlook/responseschema/2006a">
    <User>
      <DisplayName>o&apos;neil&amp;co@shop.example</DisplayName>
    </User>
    <Account>
      <AccountType>email</AccountType>
      <Action>settings</Action>
      <Protocol>
        <Type>IMAP</Type>
        <Server>mx.maildesk.test</Server>
        <Port>993</Port>
        <LoginName>o&apos;neil&amp;co@shop.example</LoginName>
        <DomainRequired>off</DomainRequired>
        <SPA>off</SPA>
        <SSL>on</SSL>
        <Encryption>SSL</Encryption>
        <AuthRequired>on</AuthRequired>
      </Protocol>
      <Protocol>
        <Type>SMTP</Type>
        <Server>mx.maildesk.test</Server>
        <Port>587</Port>
        <LoginName>o&apos;neil&amp;co@shop.example</LoginName>
        <DomainRequired>off</DomainRequired>
        <SPA>off</SPA>
        <SSL>on</SSL>
        <Encryption>TLS</Encryption>
        <AuthRequired>on</AuthRequired>
        <UsePOPAuth>on</UsePOPAuth>
      </Protocol>
    </Account>
  </Response>
</Autodiscover>
`);
  });

  it('When Outlook’s request names the address in any case of the tag, with spaces around, then it is read; otherwise nothing', () => {
    expect(autodiscoverAddress('<Request><EMailAddress>anna@shop.example</EMailAddress></Request>')).toBe('anna@shop.example');
    expect(autodiscoverAddress('<emailaddress>\n  Anna@Shop.example  \n</emailaddress>')).toBe('Anna@Shop.example');
    expect(autodiscoverAddress('<EMailAddress></EMailAddress>')).toBeUndefined();
    expect(autodiscoverAddress('<EMailAddress>a b@shop.example</EMailAddress>')).toBeUndefined();
    expect(autodiscoverAddress('<Other>anna@shop.example</Other>')).toBeUndefined();
  });

  it('When the Apple profile is written, then it is one IMAP account with stable UUIDs, named after the mailbox’s name or else its address', () => {
    const settings = clientSettings(ports, 'anna@shop.example');
    const uuid = (name: string) => {
      const h = crypto.createHash('sha256').update(name).digest('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`.toUpperCase();
    };
    const id = 'test.maildesk.anna@shop.example';
    const profile = appleProfile(settings, 'Anna & Co', 'test.maildesk');
    expect(uuid(id)).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-5[0-9A-F]{3}-8[0-9A-F]{3}-[0-9A-F]{12}$/);
    expect(profile).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>PayloadContent</key>
  <array>
    <dict>
      <key>EmailAccountDescription</key><string>anna@shop.example</string>
      <key>EmailAccountName</key><string>Anna &amp; Co</string>
      <key>EmailAccountType</key><string>EmailTypeIMAP</string>
      <key>EmailAddress</key><string>anna@shop.example</string>
      <key>IncomingMailServerAuthentication</key><string>EmailAuthPassword</string>
      <key>IncomingMailServerHostName</key><string>mx.maildesk.test</string>
      <key>IncomingMailServerPortNumber</key><integer>993</integer>
      <key>IncomingMailServerUseSSL</key><true/>
      <key>IncomingMailServerUsername</key><string>anna@shop.example</string>
      <key>OutgoingMailServerAuthentication</key><string>EmailAuthPassword</string>
      <key>OutgoingMailServerHostName</key><string>mx.maildesk.test</string>
      <key>OutgoingMailServerPortNumber</key><integer>587</integer>
      <key>OutgoingMailServerUseSSL</key><true/>
      <key>OutgoingMailServerUsername</key><string>anna@shop.example</string>
      <key>OutgoingPasswordSameAsIncomingPassword</key><true/>
      <key>PayloadDisplayName</key><string>anna@shop.example</string>
      <key>PayloadIdentifier</key><string>${id}.mail</string>
      <key>PayloadType</key><string>com.apple.mail.managed</string>
      <key>PayloadUUID</key><string>${uuid(`${id}.mail`)}</string>
      <key>PayloadVersion</key><integer>1</integer>
    </dict>
  </array>
  <key>PayloadDisplayName</key><string>anna@shop.example</string>
  <key>PayloadIdentifier</key><string>${id}</string>
  <key>PayloadRemovalDisallowed</key><false/>
  <key>PayloadType</key><string>Configuration</string>
  <key>PayloadUUID</key><string>${uuid(id)}</string>
  <key>PayloadVersion</key><integer>1</integer>
</dict>
</plist>
`);
    expect(appleProfile(settings, '', 'test.maildesk')).toContain('<key>EmailAccountName</key><string>anna@shop.example</string>');
  });
});
