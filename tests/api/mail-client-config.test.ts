/**
 * Mail programs configure themselves: Thunderbird's autoconfig and Outlook's autodiscover
 * answer for active, verified domains only (anything else is a bare 404), with the settings
 * from MAIL_HOSTNAME and the configured ports; a mailbox's settings and Apple profile are
 * given to those who may see the mailbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, signUpCustomer, type CustomerSession } from '../helpers/fixtures.js';
import { MiB, mailFixtures } from '../helpers/mail-fixtures.js';

let t: TestApp;
let mail: ReturnType<typeof mailFixtures>;
let a: CustomerSession;
let b: CustomerSession;
let active: { id: number; name: string };
let pending: { id: number; name: string };
let box: { id: number; address: string };

beforeAll(async () => {
  t = await startTestApp({ MAIL_HOSTNAME: 'mx.maildesk.test', MAIL_SUBMISSIONS_PORT: '465' });
  mail = mailFixtures(t);
  [a, b] = [await signUpCustomer(t), await signUpCustomer(t)];
  await mail.grant(a.id, 100 * MiB);
  active = await mail.activeDomain(a);
  pending = await mail.pendingDomain(a);
  box = await mail.mailbox(a.token, active.id, 'anna');
});
afterAll(() => t.close());

const raw = (method: 'GET' | 'POST', url: string, options: { body?: string; host?: string; type?: string } = {}) =>
  t.app.inject({ method, url, headers: { host: options.host ?? 'maildesk.test', ...(options.body ? { 'content-type': options.type ?? 'text/xml' } : {}) }, payload: options.body });

const autodiscoverRequest = (address: string) => `<?xml version="1.0" encoding="utf-8"?>
<Autodiscover xmlns="http://schemas.microsoft.com/exchange/autodiscover/outlook/requestschema/2006">
  <Request>
    <EMailAddress>${address}</EMailAddress>
    <AcceptableResponseSchema>http://schemas.microsoft.com/exchange/autodiscover/outlook/responseschema/2006a</AcceptableResponseSchema>
  </Request>
</Autodiscover>`;

describe('Thunderbird autoconfig', () => {
  it('When asked for an address of an active domain, then it answers clientConfig 1.1 with IMAP over SSL and submission over STARTTLS', async () => {
    const reply = await raw('GET', `/.well-known/autoconfig/mail/config-v1.1.xml?emailaddress=${encodeURIComponent(box.address)}`);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/xml/);
    expect(reply.body).toContain('<clientConfig version="1.1">');
    expect(reply.body).toContain(`<emailProvider id="${active.name}">`);
    expect(reply.body).toMatch(/<incomingServer type="imap">\s*<hostname>mx\.maildesk\.test<\/hostname>\s*<port>993<\/port>\s*<socketType>SSL<\/socketType>/);
    expect(reply.body).toMatch(/<outgoingServer type="smtp">\s*<hostname>mx\.maildesk\.test<\/hostname>\s*<port>587<\/port>\s*<socketType>STARTTLS<\/socketType>/);
    expect(reply.body).toMatch(/<outgoingServer type="smtp">\s*<hostname>mx\.maildesk\.test<\/hostname>\s*<port>465<\/port>\s*<socketType>SSL<\/socketType>/);
  });

  it('When asked on autoconfig.<domain> without an address, then the host names the domain', async () => {
    const reply = await raw('GET', '/mail/config-v1.1.xml', { host: `autoconfig.${active.name}` });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toContain(`<domain>${active.name}</domain>`);
  });

  it('When the domain is pending, unknown or malformed, then a bare 404 says nothing about it', async () => {
    const answers = await Promise.all(
      [`anna@${pending.name}`, 'anna@nowhere.example', 'not-an-address', `x@${active.name}<script>`].map((address) =>
        raw('GET', `/.well-known/autoconfig/mail/config-v1.1.xml?emailaddress=${encodeURIComponent(address)}`),
      ),
    );
    for (const reply of answers) {
      expect(reply.statusCode).toBe(404);
      expect(reply.body).toBe('Not Found');
    }
  });

  it('When the address is given twice or as a list, then no address is read from it: a bare 404, not a crash', async () => {
    const address = encodeURIComponent(box.address);
    for (const query of [`emailaddress=${address}&emailaddress=${address}`, `emailaddress[]=${address}`]) {
      for (const url of [`/.well-known/autoconfig/mail/config-v1.1.xml?${query}`, `/autodiscover/autodiscover.xml?${query}`]) {
        const reply = await raw('GET', url);
        expect({ url, status: reply.statusCode, body: reply.body }).toEqual({ url, status: 404, body: 'Not Found' });
      }
    }
  });
});

describe('Outlook autodiscover', () => {
  it('When Outlook posts its request for a mailbox of an active domain, then the POX answer names IMAP and SMTP', async () => {
    const reply = await raw('POST', '/autodiscover/autodiscover.xml', { body: autodiscoverRequest(box.address) });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toContain('<Autodiscover xmlns="http://schemas.microsoft.com/exchange/autodiscover/responseschema/2006">');
    expect(reply.body).toContain('<Response xmlns="http://schemas.microsoft.com/exchange/autodiscover/outlook/responseschema/2006a">');
    expect(reply.body).toMatch(/<AccountType>email<\/AccountType>\s*<Action>settings<\/Action>/);
    expect(reply.body).toMatch(/<Type>IMAP<\/Type>\s*<Server>mx\.maildesk\.test<\/Server>\s*<Port>993<\/Port>\s*<LoginName>anna@/);
    expect(reply.body).toMatch(/<Type>SMTP<\/Type>\s*<Server>mx\.maildesk\.test<\/Server>\s*<Port>587<\/Port>[\s\S]*<Encryption>TLS<\/Encryption>/);
    // Outlook's capitalised path and application/xml work the same.
    expect((await raw('POST', '/Autodiscover/Autodiscover.xml', { body: autodiscoverRequest(box.address), type: 'application/xml' })).statusCode).toBe(200);
  });

  it('When the address is of a pending or unknown domain, or the request is not one, then a bare 404', async () => {
    for (const body of [autodiscoverRequest(`anna@${pending.name}`), autodiscoverRequest('x@unknown.example'), '<nothing/>']) {
      const reply = await raw('POST', '/autodiscover/autodiscover.xml', { body });
      expect(reply.statusCode).toBe(404);
      expect(reply.body).toBe('Not Found');
    }
  });

  it('When the domain is suspended, then it no longer answers', async () => {
    const root = await operatorLogin(t);
    const other = await mail.activeDomain(a);
    expect((await raw('GET', `/.well-known/autoconfig/mail/config-v1.1.xml?emailaddress=x@${other.name}`)).statusCode).toBe(200);
    expect((await t.post('/api/manage/domain/update', { id: other.id, status: 'suspended' }, { token: root })).code).toBe(0);
    expect((await raw('GET', `/.well-known/autoconfig/mail/config-v1.1.xml?emailaddress=x@${other.name}`)).statusCode).toBe(404);
  });
});

describe('a mailbox’s settings and Apple profile', () => {
  it('When the owner asks, then host, ports, security and login name are given, and the profile is an Apple mail payload', async () => {
    const settings = await t.get('/api/admin/email/client_settings', { id: box.id }, { token: a.token });
    expect(settings.data).toEqual({
      address: box.address,
      username: box.address,
      in_service: true,
      incoming: [{ protocol: 'imap', host: 'mx.maildesk.test', port: 993, security: 'ssl' }],
      outgoing: [
        { protocol: 'smtp', host: 'mx.maildesk.test', port: 587, security: 'starttls' },
        { protocol: 'smtp', host: 'mx.maildesk.test', port: 465, security: 'ssl' },
      ],
    });
    const profile = (await t.get('/api/admin/email/apple_profile', { id: box.id }, { token: a.token })).data;
    expect(profile.filename).toBe(`${box.address}.mobileconfig`);
    expect(profile.content).toContain('<string>com.apple.mail.managed</string>');
    expect(profile.content).toContain('<key>IncomingMailServerHostName</key><string>mx.maildesk.test</string>');
    expect(profile.content).toContain('<key>OutgoingMailServerPortNumber</key><integer>587</integer>');
    expect(profile.content).toContain(`<key>EmailAddress</key><string>${box.address}</string>`);
  });

  it('When another customer asks for the mailbox, then it is not found', async () => {
    expect(await t.get('/api/admin/email/client_settings', { id: box.id }, { token: b.token })).toMatchObject({ status: 404, code: 40400 });
    expect(await t.get('/api/admin/email/apple_profile', { id: box.id }, { token: b.token })).toMatchObject({ status: 404, code: 40400 });
  });
});
