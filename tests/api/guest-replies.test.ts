/**
 * Operators answer guest messages from the panel: the reply goes out through the mail queue
 * (in the visitor's outbox after the jobs ran), is recorded with the message, and the message
 * leaves the open list; it can be marked handled or reopened. Bad input changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, operatorWithRole, someIp, uniqueEmail } from '../helpers/fixtures.js';

let t: TestApp;
let root: string;
beforeAll(async () => {
  t = await startTestApp();
  root = await operatorLogin(t);
});
afterAll(() => t.close());

async function guestMessage(email = uniqueEmail('guest')) {
  const ip = someIp();
  await t.post('/api/message/send', { name: 'Grace Guest', email, subject: 'Pricing', content: 'How much is 10 GB?' }, { ip });
  const row = (await t.get('/api/manage/guest_message/list', { filter: { ip } }, { token: root })).data.list[0];
  return { ...row, email } as { id: number; email: string; handled: number };
}

const open = async () => (await t.get('/api/manage/guest_message/list', { filter: { handled: 0 }, page_size: 100 }, { token: root })).data.list.map((m: { id: number }) => m.id);

describe('replying to a guest message', () => {
  it('When an operator replies, then the visitor receives it by e-mail, the reply is recorded and the message is no longer open', async () => {
    const message = await guestMessage();
    expect(message.handled).toBe(0);
    expect(await open()).toContain(message.id);

    const reply = await t.post('/api/manage/guest_message/reply', { id: message.id, subject: 'Re: Pricing', body: '10 GB cost 20 yuan a year.', locale: 'en' }, { token: root });
    expect(reply).toMatchObject({ code: 0, data: { id: message.id, handled: 1 } });
    expect(reply.data.replied_at).toEqual(expect.any(String));

    const mail = (await t.outbox()).filter((m) => m.to === message.email);
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toBe('Re: Pricing');
    expect(mail[0].text).toContain('Hello Grace Guest');
    expect(mail[0].text).toContain('10 GB cost 20 yuan a year.');
    expect(mail[0].text).toContain('How much is 10 GB?');

    const replies = await t.get('/api/manage/guest_message/replies', { id: message.id }, { token: root });
    expect(replies.data).toMatchObject([{ guest_message_id: message.id, operator_name: 'root', locale: 'en', subject: 'Re: Pricing', body: '10 GB cost 20 yuan a year.' }]);
    const sendLog = await t.get('/api/manage/email_send_log/list', { filter: { recipient: message.email } }, { token: root });
    expect(sendLog.data.list).toMatchObject([{ template_key: 'guest_reply', status: 'sent', locale: 'en' }]);
    expect(await open()).not.toContain(message.id);
  });

  it('When the reply is empty, then the fields say so and nothing is sent or recorded', async () => {
    const message = await guestMessage();
    expect(await t.post('/api/manage/guest_message/reply', { id: message.id, subject: ' ', body: '' }, { token: root })).toMatchObject({
      status: 400,
      code: 40000,
      errors: { subject: { message: 'validation.required' }, body: { message: 'validation.required' } },
    });
    expect((await t.outbox()).filter((m) => m.to === message.email)).toHaveLength(0);
    expect((await t.get('/api/manage/guest_message/replies', { id: message.id }, { token: root })).data).toEqual([]);
    expect(await open()).toContain(message.id);
    expect(await t.post('/api/manage/guest_message/reply', { id: 999999, subject: 'x', body: 'y' }, { token: root })).toMatchObject({ status: 404, code: 40400 });
  });

  it('When marked handled and reopened, then the open list follows, and a billing operator may read but not answer', async () => {
    const message = await guestMessage();
    expect((await t.post('/api/manage/guest_message/handle', { id: message.id, handled: 1 }, { token: root })).data.handled).toBe(1);
    expect(await open()).not.toContain(message.id);
    expect((await t.post('/api/manage/guest_message/handle', { id: message.id, handled: 0 }, { token: root })).data).toMatchObject({ handled: 0, handled_at: null });
    expect(await open()).toContain(message.id);
    const billing = await operatorWithRole(t, 'billing');
    expect(await t.post('/api/manage/guest_message/reply', { id: message.id, subject: 'x', body: 'y' }, { token: billing.token })).toMatchObject({ status: 403, code: 40300 });
    expect((await t.get('/api/manage/guest_message/replies', { id: message.id }, { token: billing.token })).code).toBe(0);
  });
});
