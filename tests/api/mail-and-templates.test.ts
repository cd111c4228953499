/** E-mail templates (/api/manage/email_template/*), what is sent from them, and the send log (/api/manage/email_send_log/*). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, someIp, uniqueEmail } from '../helpers/fixtures.js';

let t: TestApp;
let root: string;
beforeAll(async () => {
  t = await startTestApp();
  root = await operatorLogin(t);
});
afterAll(() => t.close());

interface Template {
  id: number;
  key: string;
  locale: string;
  subject: string;
  body: string;
}

async function templateOf(key: string, locale: string): Promise<Template> {
  const reply = await t.get('/api/manage/email_template/list', { filter: { key, locale } }, { token: root });
  expect(reply.data.total).toBe(1);
  return (await t.get('/api/manage/email_template/get', { id: reply.data.list[0].id }, { token: root })).data;
}

const register = (email: string, locale: 'en' | 'zh' = 'en') => t.post('/api/admin/login/register', { email, password: 'customer-pass-1' }, { ip: someIp(), locale });
const sendLogOf = async (recipient: string, app = t, token = root) =>
  (await app.get('/api/manage/email_send_log/list', { filter: { recipient }, sort: 'created_at', order: 'asc' }, { token })).data.list;

describe('templates', () => {
  it('When templates are listed, then every message the system sends has one in Chinese and English', async () => {
    const reply = await t.get('/api/manage/email_template/list', { page_size: 100 }, { token: root });
    const pairs = reply.data.list.map((r: Template) => `${r.key}/${r.locale}`);
    for (const key of ['verify_code', 'login_code', 'password_reset', 'email_change', 'account_exists']) {
      expect(pairs).toContain(`${key}/en`);
      expect(pairs).toContain(`${key}/zh`);
    }
    const one = await templateOf('verify_code', 'zh');
    expect(one.body).toContain('{{code}}');
  });

  it('When a template is created, read, updated and deleted, then each step shows', async () => {
    const created = await t.post('/api/manage/email_template/create', { key: 'welcome_note', locale: 'en', subject: 'Re: {{subject}}', body: 'Hello {{name}}' }, { token: root });
    expect(created).toMatchObject({ status: 200, code: 0, data: { key: 'welcome_note', locale: 'en', subject: 'Re: {{subject}}', body: 'Hello {{name}}' } });
    const id = created.data.id;
    expect(await t.get('/api/manage/email_template/get', { id }, { token: root })).toMatchObject({ code: 0, data: { id, key: 'welcome_note' } });
    expect(await t.post('/api/manage/email_template/update', { id, subject: 'Answer: {{subject}}' }, { token: root })).toMatchObject({
      code: 0,
      data: { id, subject: 'Answer: {{subject}}', body: 'Hello {{name}}' },
    });
    expect(await t.post('/api/manage/email_template/delete', { id }, { token: root })).toMatchObject({ code: 0, data: { id } });
    expect(await t.get('/api/manage/email_template/get', { id }, { token: root })).toMatchObject({ status: 404, code: 40400 });
  });

  it('When a key and locale already have a template, then creating or moving another onto them is refused', async () => {
    expect(await t.post('/api/manage/email_template/create', { key: 'verify_code', locale: 'en', subject: 'Dup', body: 'Dup' }, { token: root })).toMatchObject({
      status: 400,
      code: 40000,
      errors: { key: { message: 'validation.template_exists', params: { key: 'verify_code', locale: 'en' } } },
    });
    // The same key in the other locale is a different template.
    const other = await t.post('/api/manage/email_template/create', { key: 'newsletter', locale: 'zh', subject: '订单已支付', body: '谢谢' }, { token: root });
    expect(other.code).toBe(0);
    expect((await t.post('/api/manage/email_template/create', { key: 'newsletter', locale: 'en', subject: 'Paid', body: 'Thanks' }, { token: root })).code).toBe(0);
    expect(await t.post('/api/manage/email_template/update', { id: other.data.id, locale: 'en' }, { token: root })).toMatchObject({
      code: 40000,
      errors: { key: { message: 'validation.template_exists' } },
    });
    expect((await t.get('/api/manage/email_template/get', { id: other.data.id }, { token: root })).data.locale).toBe('zh');
  });

  it('When fields are missing or bad, then each says what is wrong', async () => {
    expect(await t.post('/api/manage/email_template/create', { key: 'x', locale: 'fr', subject: '', body: '' }, { token: root })).toMatchObject({
      code: 40000,
      errors: {
        locale: { message: 'validation.invalid_choice' },
        subject: { message: 'validation.required' },
        body: { message: 'validation.required' },
      },
    });
    expect((await t.post('/api/manage/email_template/create', {}, { token: root })).errors).toMatchObject({
      key: { message: 'validation.required' },
      locale: { message: 'validation.required' },
      subject: { message: 'validation.required' },
      body: { message: 'validation.required' },
    });
  });
});

describe('what is sent', () => {
  it('When a template is edited, then the next message uses it, with its placeholders filled in', async () => {
    const template = await templateOf('verify_code', 'en');
    const edited = await t.post(
      '/api/manage/email_template/update',
      { id: template.id, subject: 'Edited code {{code}}', body: 'Dear {{email}}, your code is {{code}} ({{minutes}} minutes). {{unknown}}' },
      { token: root },
    );
    expect(edited.code).toBe(0);

    const email = uniqueEmail();
    await register(email);
    const mail = (await t.outbox()).filter((m) => m.to === email);
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toMatch(/^Edited code \d{6}$/);
    const code = mail[0].subject.slice(-6);
    expect(mail[0].text).toContain(`Dear ${email}, your code is ${code} (10 minutes). {{unknown}}`);
    // And the code in it works.
    expect((await t.post('/api/admin/login/verify', { email, code }, { ip: someIp() })).code).toBe(0);

    // The Chinese template is untouched.
    const zh = uniqueEmail('zh');
    await register(zh, 'zh');
    expect((await t.outbox()).filter((m) => m.to === zh)[0].subject).toMatch(/^Maildesk 验证码：\d{6}$/);
  });

  it('When a template is deleted, then the built-in default is sent instead', async () => {
    const template = await templateOf('password_reset', 'en');
    await t.post('/api/manage/email_template/delete', { id: template.id }, { token: root });
    const email = uniqueEmail();
    await register(email);
    await t.post('/api/admin/login/forgot_password_send_email', { email }, { ip: someIp() });
    const last = (await t.outbox()).filter((m) => m.to === email).at(-1)!;
    expect(last.subject).toBe('Reset your Maildesk password');
  });
});

describe('the send log', () => {
  it('When messages are sent, then each is in the send log with recipient, template, locale, status and transport', async () => {
    const email = uniqueEmail();
    await register(email);
    await t.post('/api/admin/login/send_code', { email, purpose: 'login' }, { ip: someIp() });
    const sent = (await t.outbox()).filter((m) => m.to === email);
    const log = await sendLogOf(email);
    expect(log).toHaveLength(2);
    // The logged subject is the sent one with the code masked.
    const masked = (subject: string) => subject.replace(/\d{6}/, '••••••');
    expect(log).toMatchObject([
      { recipient: email, template_key: 'verify_code', locale: 'en', status: 'sent', transport: 'outbox', subject: masked(sent[0].subject) },
      { recipient: email, template_key: 'login_code', locale: 'en', status: 'sent', transport: 'outbox', subject: masked(sent[1].subject) },
    ]);

    const one = await t.get('/api/manage/email_send_log/get', { id: log[0].id }, { token: root });
    expect(one).toMatchObject({ code: 0, data: { id: log[0].id, recipient: email, status: 'sent', error: null } });
    expect(one.data.message_id).toMatch(/^<[0-9a-f-]{36}@[^>]+>$/);
    const customer = await t.services.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    expect(one.data.user_id).toBe(customer.id);
  });

  it('When a send log entry is deleted, then it is gone and the others stay', async () => {
    const email = uniqueEmail();
    await register(email);
    await t.post('/api/admin/login/send_code', { email, purpose: 'login' }, { ip: someIp() });
    await t.outbox();
    const [first, second] = await sendLogOf(email);
    expect(await t.post('/api/manage/email_send_log/delete', { id: first.id }, { token: root })).toMatchObject({ code: 0, data: { id: first.id } });
    expect(await t.get('/api/manage/email_send_log/get', { id: first.id }, { token: root })).toMatchObject({ status: 404, code: 40400 });
    expect((await sendLogOf(email)).map((e: { id: number }) => e.id)).toEqual([second.id]);
  });

  it('When the SMTP server cannot be reached, then the call still answers, the send log shows each try and its error, and after the last try says failed', async () => {
    const broken = await startTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const email = uniqueEmail();
      const reply = await broken.post('/api/admin/login/register', { email, password: 'customer-pass-1' });
      expect(reply).toMatchObject({ status: 200, code: 0, data: { email } });
      await broken.services.jobs.drain();
      const token = await operatorLogin(broken);
      const log = await sendLogOf(email, broken, token);
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ recipient: email, template_key: 'verify_code', status: 'pending', attempts: 1, transport: 'smtp' });
      const entry = await broken.get('/api/manage/email_send_log/get', { id: log[0].id }, { token });
      expect(entry.data.error).toMatch(/ECONNREFUSED|connect/i);
      expect((await broken.post('/api/manage/index/stat', {}, { token })).data.mail_7d).toEqual({ pending: 1, sent: 0, failed: 0 });

      // The retries wait about 30 s, 1, 2, 4 and 8 minutes: move the clock past each one.
      for (let retry = 1; retry <= 5; retry++) {
        await broken.moveClock(20 * 60_000);
        await broken.services.jobs.drain();
      }
      const final = await broken.get('/api/manage/email_send_log/get', { id: log[0].id }, { token });
      expect(final.data).toMatchObject({ status: 'failed', attempts: 6, sent_at: null });
      expect(final.data.error).toMatch(/ECONNREFUSED|connect/i);
      expect((await broken.get('/api/manage/email_send_log/list', { filter: { status: 'failed' } }, { token })).data.total).toBe(1);
      expect((await broken.post('/api/manage/index/stat', {}, { token })).data.mail_7d).toEqual({ pending: 0, sent: 0, failed: 1 });
      // Nothing is written to the outbox when an SMTP server is configured.
      expect(await broken.outbox()).toEqual([]);
    } finally {
      broken.resetClock();
      await broken.close();
    }
  });
});
