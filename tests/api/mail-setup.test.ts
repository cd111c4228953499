/**
 * An operator's first day: the outgoing-mail settings the panel runs with and a test message
 * through them (/api/manage/outbox/*), and the mail server the customers' domains point at
 * (/api/manage/mail_server/settings).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { operatorLogin, operatorWithRole } from '../helpers/fixtures.js';
import { smtpSink } from '../helpers/smtp-sink.js';

let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(() => dns?.close());

async function withApp(env: Record<string, string>, test: (t: TestApp, root: string) => Promise<void>) {
  const t = await startTestApp(env);
  try {
    await test(t, await operatorLogin(t));
  } finally {
    await t.close();
  }
}

const sendLogEntry = async (t: TestApp, root: string, id: number) => (await t.get('/api/manage/email_send_log/get', { id }, { token: root })).data;

describe('outgoing mail', () => {
  it('When no SMTP_URL is set, then the settings say the outbox, and a test message lands there, recorded as sent through the outbox', async () => {
    await withApp({ MAIL_FROM: 'Example Mail <noreply@example.net>' }, async (t, root) => {
      expect(await t.post('/api/manage/outbox/settings', {}, { token: root })).toMatchObject({
        code: 0,
        data: { transport: 'outbox', smtp_server: null, mail_from: 'Example Mail <noreply@example.net>' },
      });
      const sent = await t.post('/api/manage/outbox/send_test', { to: 'Ops@Example.com', locale: 'zh' }, { token: root });
      expect(sent).toMatchObject({ code: 0, data: { transport: 'outbox' } });
      const [message] = (await t.outbox()).filter((m) => m.to === 'ops@example.com');
      expect(message.subject).toBe('Maildesk 测试邮件');
      expect(message.text).toContain('root');
      expect(await sendLogEntry(t, root, sent.data.id)).toMatchObject({ template_key: 'test_message', recipient: 'ops@example.com', status: 'sent', transport: 'outbox' });
    });
  });

  it('When SMTP_URL names a server, then the settings show its host and port but never its credentials, and the test message reaches it', async () => {
    const sink = await smtpSink();
    await sink.up();
    try {
      await withApp({ SMTP_URL: `smtp://mailer:s3cret-pass@127.0.0.1:${sink.port}` }, async (t, root) => {
        const settings = await t.post('/api/manage/outbox/settings', {}, { token: root });
        expect(settings.data).toMatchObject({ transport: 'smtp', smtp_server: `127.0.0.1:${sink.port}` });
        expect(JSON.stringify(settings)).not.toMatch(/s3cret|mailer/);
        const sent = await t.post('/api/manage/outbox/send_test', { to: 'ops@example.com' }, { token: root });
        expect(sent).toMatchObject({ code: 0, data: { transport: 'smtp' } });
        await t.services.jobs.drain();
        expect(await sendLogEntry(t, root, sent.data.id)).toMatchObject({ template_key: 'test_message', status: 'sent', transport: 'smtp' });
        expect(sink.received.join('\n')).toContain('Subject: Maildesk test message');
        // The activity log tells who sent it, to whom.
        const log = await t.post('/api/manage/log/list', { filter: { action: 'send_test' } }, { token: root });
        expect(log.data.list[0]).toMatchObject({ actor_name: 'root', target_type: 'email_send_log', target_id: sent.data.id });
      });
    } finally {
      await sink.close();
    }
  });

  it('When the SMTP server is down, then the test message is recorded with the error the operator needs', async () => {
    await withApp({ SMTP_URL: 'smtp://127.0.0.1:1' }, async (t, root) => {
      const sent = await t.post('/api/manage/outbox/send_test', { to: 'ops@example.com' }, { token: root });
      await t.services.jobs.drain();
      expect(await sendLogEntry(t, root, sent.data.id)).toMatchObject({ status: 'pending', attempts: 1, error: expect.stringMatching(/ECONNREFUSED/) });
    });
  });

  it('When a support operator sends a test message, or the address is not one, then it is refused and nothing is sent', async () => {
    await withApp({}, async (t, root) => {
      const support = await operatorWithRole(t, 'support');
      expect(await t.post('/api/manage/outbox/send_test', { to: 'ops@example.com' }, { token: support.token })).toMatchObject({ status: 403, code: 40300 });
      expect(await t.post('/api/manage/outbox/settings', {}, { token: support.token })).toMatchObject({ code: 0 });
      expect(await t.post('/api/manage/outbox/send_test', { to: 'not an address' }, { token: root })).toMatchObject({ status: 400, code: 40000 });
      expect((await t.outbox()).filter((m) => m.to === 'ops@example.com')).toEqual([]);
    });
  });
});

describe('the mail server', () => {
  it('When MAIL_HOSTNAME is a public name with an address in DNS, then it is ready: no problem, no notice, its addresses found', async () => {
    dns.host('mx.example-provider.net', '192.0.2.25', '2001:db8::25');
    await withApp({ DNS_SERVERS: dns.address, MAIL_HOSTNAME: 'mx.example-provider.net' }, async (t, root) => {
      const { data } = await t.post('/api/manage/mail_server/settings', {}, { token: root });
      expect(data).toMatchObject({ hostname: 'mx.example-provider.net', problem: null, notice: null, imap_port: 993, submission_port: 587 });
      expect(data.addresses).toMatchObject({ status: 'ok' });
      expect(data.addresses.found.sort()).toEqual(['192.0.2.25', '2001:db8::25']);
    });
  });

  it('When MAIL_HOSTNAME has no address in DNS, then the addresses are missing', async () => {
    await withApp({ DNS_SERVERS: dns.address, MAIL_HOSTNAME: 'mx.nowhere.example' }, async (t, root) => {
      const { data } = await t.post('/api/manage/mail_server/settings', {}, { token: root });
      expect(data).toMatchObject({ problem: null, addresses: { status: 'missing', found: [] } });
    });
  });

  it('When MAIL_HOSTNAME is unset and PUBLIC_URL an address, then the operator gets the same notice as on a domain’s DNS page', async () => {
    await withApp({ DNS_SERVERS: dns.address, PUBLIC_URL: 'http://127.0.0.1:8080' }, async (t, root) => {
      const { data } = await t.post('/api/manage/mail_server/settings', {}, { token: root });
      expect(data).toMatchObject({ hostname: '127.0.0.1', problem: 'ip', notice: { message: 'dns.mail_hostname_invalid', params: { hostname: '127.0.0.1' } }, addresses: { status: 'unchecked' } });
    });
  });
});
