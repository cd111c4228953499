/** Support tickets through the API, as customers, team members and operators use them. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, operatorWithRole, signUpCustomer, teamMemberOf, type CustomerSession } from '../helpers/fixtures.js';
import { mailFixtures } from '../helpers/mail-fixtures.js';
import { shopFixtures } from '../helpers/shop-fixtures.js';
import { openTicket, png, postForm } from '../helpers/support.js';
import { setClock } from '../../server/core/time.js';
import { startOfWeek } from '../../server/support/stats.js';
import { closeWaitingTickets } from '../../server/support/tickets.js';

let t: TestApp;
let root: string;
let support: Awaited<ReturnType<typeof operatorWithRole>>;
let billing: Awaited<ReturnType<typeof operatorWithRole>>;
let customer: CustomerSession;
let other: CustomerSession;
let shop: ReturnType<typeof shopFixtures>;

const MAX_BYTES = 4096;
beforeAll(async () => {
  t = await startTestApp({ ATTACHMENT_MAX_BYTES: String(MAX_BYTES), ATTACHMENT_MAX_COUNT: '3', TICKET_AUTOCLOSE_DAYS: '5', TICKET_REOPEN_DAYS: '10' });
  root = await operatorLogin(t);
  support = await operatorWithRole(t, 'support');
  billing = await operatorWithRole(t, 'billing');
  // Operators who get ticket mail: support in Chinese, billing in English.
  await t.post('/api/manage/admin/update', { id: support.id, email: 'support-desk@provider.test', locale: 'zh' }, { token: root });
  await t.post('/api/manage/admin/update', { id: billing.id, email: 'billing-desk@provider.test', locale: 'en' }, { token: root });
  customer = await signUpCustomer(t);
  other = await signUpCustomer(t);
  shop = shopFixtures(t);
  await t.post('/api/admin/me/update_locale', { locale: 'en' }, { token: customer.token });
}, 60_000);
afterEach(() => setClock());
afterAll(() => t.close());

const mailsTo = async (to: string) => (await t.outbox()).filter((m) => m.to === to);
/** The files kept in the file store (the database by default: every instance reaches them). */
const storedFiles = async () => (await t.services.db.selectFrom('stored_file').select('key').execute()).map((r) => r.key);
const ticketRows = async () => Number((await t.services.db.selectFrom('ticket').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('A customer opens a ticket', () => {
  it('When a customer opens a ticket with a file, then it is open, has a people-facing number, keeps line breaks, and support is mailed in its language', async () => {
    const before = (await mailsTo('support-desk@provider.test')).length;
    const ticket = await openTicket(t, customer.token, { subject: 'Mail to info@ bounces', message: 'Line one\nLine two <b>bold?</b>' }, [{ name: 'screenshot.png', content: png, type: 'image/png' }]);
    expect(ticket).toMatchObject({ status: 'open', category: 'mail_delivery', priority: 'normal', last_reply_by: 'customer' });
    expect(ticket.number).toMatch(/^[2-9A-HJ-NP-Z]{8}$/);
    expect(ticket.number).not.toBe(String(ticket.id));
    expect(ticket).not.toHaveProperty('assignee_id');
    expect(ticket.messages).toEqual([
      expect.objectContaining({ body: 'Line one\nLine two <b>bold?</b>', author_type: 'customer', attachments: [expect.objectContaining({ file_name: 'screenshot.png', content_type: 'image/png', size: png.length })] }),
    ]);
    const mails = await mailsTo('support-desk@provider.test');
    expect(mails.length).toBe(before + 1);
    expect(mails.at(-1)!.subject).toBe(`[#${ticket.number}] 新工单：Mail to info@ bounces`);
    expect(mails.at(-1)!.text).toContain(`/manage/ticket/view?id=${ticket.id}`);
  });

  it('When a billing ticket is opened, then the billing operators are mailed, in English', async () => {
    const ticket = await openTicket(t, customer.token, { subject: 'Invoice question', category: 'billing' });
    const mails = await mailsTo('billing-desk@provider.test');
    expect(mails.at(-1)!.subject).toBe(`[#${ticket.number}] New ticket: Invoice question`);
  });

  it('When the ticket links one of the customer’s mailboxes, then it is accepted; another customer’s record is refused', async () => {
    const mail = mailFixtures(t);
    await mail.grant(customer.id, 1024 ** 3);
    const domain = await mail.activeDomain(customer);
    const box = await mail.mailbox(customer.token, domain.id);
    const ticket = await openTicket(t, customer.token, { link_type: 'email', link_id: box.id });
    const got = await t.get(`/api/admin/ticket/get`, { id: ticket.id }, { token: customer.token });
    expect(got.data).toMatchObject({ link_type: 'email', link_id: box.id, link_name: box.address_unicode });

    await mail.grant(other.id, 1024 ** 3);
    const othersDomain = await mail.activeDomain(other);
    const count = await ticketRows();
    const refused = await t.post('/api/admin/ticket/create', { subject: 'Hi', category: 'domains', message: 'x', link_type: 'domain', link_id: othersDomain.id }, { token: customer.token });
    expect(refused).toMatchObject({ status: 400, code: 40000, errors: { link_id: { message: 'validation.unknown_record' } } });
    expect(await ticketRows()).toBe(count);
  });

  it('When the ticket asks about one of the customer’s orders, then both areas name it by its number, not its id', async () => {
    const order = await shop.order(customer.token, { product_id: (await shop.storageProduct()).id, pay_with: 'later' });
    expect(order.number).toMatch(/^[2-9A-HJ-NP-Z]{8}$/);
    const ticket = await openTicket(t, customer.token, { subject: 'About my order', category: 'billing', link_type: 'order', link_id: order.id });
    expect(ticket).toMatchObject({ link_type: 'order', link_id: order.id, link_name: order.number });
    const seenByCustomer = await t.get('/api/admin/ticket/get', { id: ticket.id }, { token: customer.token });
    expect(seenByCustomer.data).toMatchObject({ link_type: 'order', link_id: order.id, link_name: order.number });
    const seenBySupport = await t.get('/api/manage/ticket/get', { id: ticket.id }, { token: support.token });
    expect(seenBySupport.data).toMatchObject({ link_type: 'order', link_id: order.id, link_name: order.number });
    // An operator opening a ticket for the customer may link the customer's order too.
    const byOperator = await t.post('/api/manage/ticket/create', { owner_id: customer.id, subject: 'Your order', category: 'billing', message: 'We looked at it.', link_type: 'order', link_id: order.id }, { token: support.token });
    expect(byOperator).toMatchObject({ code: 0, data: { link_type: 'order', link_name: order.number } });
  });

  it('When the ticket names another customer’s order, a missing one, or (as a team member) the owner’s, then it is refused and nothing is opened', async () => {
    const product = await shop.storageProduct();
    const othersOrder = await shop.order(other.token, { product_id: product.id, pay_with: 'later' });
    const ownOrder = await shop.order(customer.token, { product_id: product.id, pay_with: 'later' });
    const member = await teamMemberOf(t, customer);
    const attempts: [string, number, Record<string, unknown>][] = [
      [customer.token, othersOrder.id, {}],
      [customer.token, othersOrder.id + 1_000_000, {}],
      [member.token, ownOrder.id, {}],
      // An operator cannot link an order to a customer who does not own it.
      [support.token, othersOrder.id, { owner_id: customer.id }],
    ];
    for (const [token, linkId, extra] of attempts) {
      const [tickets, mails] = [await ticketRows(), (await t.outbox()).length];
      const area = token === support.token ? 'manage' : 'admin';
      const refused = await t.post(`/api/${area}/ticket/create`, { subject: 'Whose order?', category: 'billing', message: 'x', link_type: 'order', link_id: linkId, ...extra }, { token });
      expect(refused).toMatchObject({ status: 400, code: 40000, errors: { link_id: { message: 'validation.unknown_record' } } });
      expect(await ticketRows()).toBe(tickets);
      expect((await t.outbox()).length).toBe(mails);
    }
    // The other customer's order is as it was, and no ticket points at it.
    expect((await t.get('/api/admin/order/get', { id: othersOrder.id }, { token: other.token })).data).toMatchObject({ status: 'pending_payment', number: othersOrder.number });
    const pointing = await t.services.db.selectFrom('ticket').select('id').where('link_type', '=', 'order').where('link_id', '=', othersOrder.id).execute();
    expect(pointing).toEqual([]);
  });
});

describe('Bad input is refused with a clear error and changes nothing', () => {
  const base = { subject: 'Help', category: 'other', message: 'Something' };
  const refusedWith = async (fields: Record<string, string | number>, files: Parameters<typeof postForm>[3], expected: Record<string, unknown>) => {
    const [count, stored] = [await ticketRows(), (await storedFiles()).length];
    const reply = await postForm(t, '/api/admin/ticket/create', { ...base, ...fields }, files, customer.token);
    expect(reply).toMatchObject(expected);
    expect(await ticketRows()).toBe(count);
    expect((await storedFiles()).length).toBe(stored);
  };

  it('When the message is empty or huge, then it is refused', async () => {
    await refusedWith({ message: '   ' }, [], { status: 400, code: 40000, errors: { message: { message: 'validation.required' } } });
    await refusedWith({ message: 'x'.repeat(20_001) }, [], { status: 400, code: 40000, errors: { message: { message: 'validation.too_long', params: { max: 20_000 } } } });
  });

  it('When there are too many files, then it is refused', async () => {
    const files = Array.from({ length: 4 }, (_, i) => ({ name: `p${i}.png`, content: png }));
    await refusedWith({}, files, { status: 400, code: 40000, errors: { attachments: { message: 'validation.too_many_files', params: { max: 3 } } } });
  });

  it('When a file is larger than ATTACHMENT_MAX_BYTES, then it is refused as too large', async () => {
    const big = Buffer.concat([png, Buffer.alloc(MAX_BYTES)]);
    await refusedWith({}, [{ name: 'big.png', content: big }], { status: 413, code: 41300, message: 'error.attachment_too_large', params: { name: 'big.png', max: MAX_BYTES } });
  });

  it('When a file named .png holds a script, or is an HTML page, then it is refused by its content', async () => {
    await refusedWith({}, [{ name: 'photo.png', content: '<script>alert(1)</script>', type: 'image/png' }], { status: 400, errors: { attachments: { message: 'validation.file_type', params: { name: 'photo.png' } } } });
    await refusedWith({}, [{ name: 'page.html', content: '<html><script>alert(1)</script></html>', type: 'text/html' }], { status: 400, errors: { attachments: { message: 'validation.file_type' } } });
    // One bad file among good ones: nothing of the message is kept.
    await refusedWith({}, [{ name: 'ok.png', content: png }, { name: 'bad.pdf', content: png }], { status: 400, errors: { attachments: { message: 'validation.file_type', params: { name: 'bad.pdf' } } } });
  });

  it('When a JSON post sends something as attachments, then it is refused (files come as a form post)', async () => {
    const reply = await t.post('/api/admin/ticket/create', { ...base, attachments: 'aGVsbG8=' }, { token: customer.token });
    expect(reply).toMatchObject({ status: 400, code: 40000, errors: { 'attachments.0': { message: 'validation.not_a_file' } } });
  });

  it('When a reply is empty, or a customer sets a status other than closed, then it is refused', async () => {
    const ticket = await openTicket(t, customer.token);
    expect(await t.post('/api/admin/ticket/append_message', { id: ticket.id, body: '' }, { token: customer.token })).toMatchObject({ code: 40000, errors: { body: { message: 'validation.required' } } });
    expect(await t.post('/api/admin/ticket/update', { id: ticket.id, status: 'answered' }, { token: customer.token })).toMatchObject({ code: 40000, errors: { status: { message: 'validation.customer_close_only' } } });
    expect(await t.post('/api/manage/ticket/update', { id: ticket.id, assignee_id: 999_999 }, { token: root })).toMatchObject({ code: 40000, errors: { assignee_id: { message: 'validation.unknown_operator' } } });
  });
});

describe('The conversation', () => {
  it('When an operator adds a note and replies, then the customer sees the reply and its file but never the note, its file, or its log entry', async () => {
    const ticket = await openTicket(t, customer.token, { subject: 'Cannot log in over IMAP' });
    const note = await postForm(t, '/api/manage/ticket/append_message', { id: ticket.id, body: 'Customer uses an old client. Internal!', internal: 1 }, [{ name: 'trace.txt', content: 'secret trace\n' }], support.token);
    expect(note.code).toBe(0);
    const noteFile = note.data.messages.at(-1).attachments[0].id as number;
    // A note changes nothing the customer sees.
    const afterNote = await t.get('/api/admin/ticket/get', { id: ticket.id }, { token: customer.token });
    expect(afterNote.data).toMatchObject({ status: 'open', last_reply_by: 'customer' });
    expect(afterNote.data.messages).toHaveLength(1);

    // The answer comes 90 s after the question (and 200 ms, so that rounding cannot tip it).
    setClock(new Date(Date.parse(afterNote.data.created_at) + 90_200));
    const reply = await postForm(t, '/api/manage/ticket/append_message', { id: ticket.id, body: 'Please use port 993.\nThen try again.', status: 'waiting_customer' }, [{ name: 'settings.pdf', content: '%PDF-1.4\n%test\n' }], support.token);
    expect(reply.data).toMatchObject({ status: 'waiting_customer', last_reply_by: 'operator', first_response_seconds: 90 });
    expect(reply.data.messages.map((m: { internal: number }) => m.internal)).toEqual([0, 1, 0]);

    const seen = await t.get('/api/admin/ticket/get', { id: ticket.id }, { token: customer.token });
    expect(seen.data.messages.map((m: { body: string }) => m.body)).toEqual(['Hello,\nno mail since Monday.', 'Please use port 993.\nThen try again.']);
    expect(JSON.stringify(seen.data)).not.toContain('Internal!');
    const replyFile = seen.data.messages[1].attachments[0].id as number;

    const file = await t.get('/api/admin/ticket/attachment', { id: replyFile }, { token: customer.token });
    expect(file.status).toBe(200);
    expect(file.headers).toMatchObject({ 'content-type': 'application/pdf', 'x-content-type-options': 'nosniff', 'content-disposition': expect.stringMatching(/^attachment; filename="settings.pdf"/) });
    // Opened rather than saved, the file runs nothing and is framed nowhere: its own policy is kept.
    expect(file.headers).toMatchObject({ 'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox", 'x-frame-options': 'DENY', 'cache-control': 'private, no-store' });
    expect(await t.get('/api/admin/ticket/attachment', { id: noteFile }, { token: customer.token })).toMatchObject({ status: 404, code: 40400 });
    const forOperator = await t.get('/api/manage/ticket/attachment', { id: noteFile }, { token: billing.token });
    expect(forOperator).toMatchObject({ status: 200, headers: { 'content-type': 'text/plain; charset=utf-8', 'content-disposition': expect.stringMatching(/^attachment;/) } });
    expect(String(forOperator.data)).toBe('secret trace\n');

    // The customer's own log has the reply, not the note.
    const log = await t.post('/api/admin/log/list', { filter: { target_type: 'ticket' }, page_size: 100 }, { token: customer.token });
    const actions = log.data.list.filter((e: { target_id: number }) => e.target_id === ticket.id).map((e: { action: string }) => e.action);
    expect(actions.sort()).toEqual(['create', 'reply']);
    const all = await t.post('/api/manage/log/list', { filter: { target_type: 'ticket', target_id: ticket.id }, page_size: 100 }, { token: root });
    expect(all.data.list.map((e: { action: string }) => e.action).sort()).toEqual(['create', 'note', 'reply']);

    // Mailed to the customer in their language (en), with the reply quoted.
    const mail = (await mailsTo(customer.email)).at(-1)!;
    expect(mail.subject).toBe(`[#${ticket.number}] New reply: Cannot log in over IMAP`);
    expect(mail.text).toContain('Please use port 993.\nThen try again.');
    expect(mail.text).not.toContain('Internal!');
  });

  it('When the customer answers, the ticket is open again and support hears; when they close it and write again within the window, it reopens; later it does not', async () => {
    const ticket = await openTicket(t, customer.token, { subject: 'Quota' });
    await t.post('/api/manage/ticket/append_message', { id: ticket.id, body: 'Which mailbox?' }, { token: support.token });
    const before = (await mailsTo('support-desk@provider.test')).length;
    const answer = await t.post('/api/admin/ticket/append_message', { id: ticket.id, body: 'info@' }, { token: customer.token });
    expect(answer.data).toMatchObject({ status: 'open', last_reply_by: 'customer' });
    expect(answer.data.waiting_since).toBe(answer.data.last_activity_at);
    const mails = await mailsTo('support-desk@provider.test');
    expect(mails.length).toBe(before + 1);
    expect(mails.at(-1)!.subject).toBe(`[#${ticket.number}] 客户回复：Quota`);

    const closed = await t.post('/api/admin/ticket/update', { id: ticket.id, status: 'closed' }, { token: customer.token });
    expect(closed.data.status).toBe('closed');
    // Closed now: after the customer's answer, and not in the future.
    expect(Date.parse(closed.data.closed_at)).toBeGreaterThanOrEqual(Date.parse(answer.data.last_activity_at));
    expect(Date.parse(closed.data.closed_at)).toBeLessThanOrEqual(Date.now());
    const reopened = await t.post('/api/admin/ticket/append_message', { id: ticket.id, body: 'It happens again' }, { token: customer.token });
    expect(reopened.data).toMatchObject({ status: 'open', closed_at: null });

    await t.post('/api/admin/ticket/update', { id: ticket.id, status: 'closed' }, { token: customer.token });
    await t.services.db.updateTable('ticket').set({ closed_at: new Date(Date.now() - 11 * 86_400_000).toISOString() }).where('id', '=', ticket.id).execute();
    const late = await t.post('/api/admin/ticket/append_message', { id: ticket.id, body: 'Again' }, { token: customer.token });
    expect(late).toMatchObject({ status: 409, code: 40900, message: 'error.ticket_closed', params: { days: 10 } });
  });

  it('When an operator closes a ticket, then the customer is mailed that it is closed', async () => {
    const ticket = await openTicket(t, customer.token, { subject: 'DNS' });
    const closed = await t.post('/api/manage/ticket/update', { id: ticket.id, status: 'closed', priority: 'low' }, { token: support.token });
    expect(closed.data).toMatchObject({ status: 'closed', priority: 'low' });
    expect((await mailsTo(customer.email)).at(-1)!.subject).toBe(`[#${ticket.number}] Ticket closed: DNS`);
  });

  it('When a ticket waits for the customer longer than TICKET_AUTOCLOSE_DAYS, then the schedule closes it and mails the customer; a fresher one stays', async () => {
    const stale = await openTicket(t, customer.token, { subject: 'Stale question' });
    const fresh = await openTicket(t, customer.token, { subject: 'Fresh question' });
    for (const id of [stale.id, fresh.id]) await t.post('/api/manage/ticket/append_message', { id, body: 'Can you send the headers?', status: 'waiting_customer' }, { token: support.token });
    await t.services.db.updateTable('ticket').set({ last_activity_at: new Date(Date.now() - 6 * 86_400_000).toISOString() }).where('id', '=', stale.id).execute();
    await t.services.jobs.runSchedule('ticket.autoclose');
    expect((await t.get('/api/admin/ticket/get', { id: stale.id }, { token: customer.token })).data.status).toBe('closed');
    expect((await t.get('/api/admin/ticket/get', { id: fresh.id }, { token: customer.token })).data.status).toBe('waiting_customer');
    expect((await mailsTo(customer.email)).at(-1)!.subject).toBe(`[#${stale.number}] Ticket closed: Stale question`);
    expect(await closeWaitingTickets(t.services)).toBe(0);
  });
});

describe('Who sees what', () => {
  it('When a team member opens a ticket, then they see only their own; the customer sees both; another customer sees neither', async () => {
    const member = await teamMemberOf(t, customer);
    const mine = await openTicket(t, member.token, { subject: 'Member question' });
    const owners = await openTicket(t, customer.token, { subject: 'Owner question' }, [{ name: 'o.png', content: png }]);
    const ids = async (token: string) => (await t.post('/api/admin/ticket/list', { page_size: 100 }, { token })).data.list.map((r: { id: number }) => r.id);
    expect(await ids(member.token)).toEqual([mine.id]);
    expect(await ids(customer.token)).toEqual(expect.arrayContaining([mine.id, owners.id]));
    expect(await ids(other.token)).toEqual([]);
    expect(await t.get('/api/admin/ticket/get', { id: owners.id }, { token: member.token })).toMatchObject({ code: 40400 });
    expect(await t.get('/api/admin/ticket/attachment', { id: owners.messages[0].attachments[0].id }, { token: member.token })).toMatchObject({ code: 40400 });
    expect(await t.post('/api/admin/ticket/append_message', { id: owners.id, body: 'hi' }, { token: other.token })).toMatchObject({ code: 40400 });
    // The operator's reply reaches the member who asked.
    await t.post('/api/manage/ticket/append_message', { id: mine.id, body: 'Answer for the member' }, { token: support.token });
    expect((await mailsTo(member.email)).at(-1)!.subject).toContain('Member question');
  });

  it('When a customer withdraws an unanswered ticket, then it and its files are gone; an answered one cannot be withdrawn', async () => {
    const ticket = await openTicket(t, customer.token, {}, [{ name: 'w.png', content: png }]);
    const stored = (await storedFiles()).length;
    expect(await t.post('/api/admin/ticket/delete', { id: ticket.id }, { token: customer.token })).toMatchObject({ code: 0 });
    // Removed by a job once the deletion is committed.
    await t.services.jobs.drain();
    expect((await storedFiles()).length).toBe(stored - 1);
    const answered = await openTicket(t, customer.token);
    await t.post('/api/manage/ticket/append_message', { id: answered.id, body: 'Done' }, { token: support.token });
    expect(await t.post('/api/admin/ticket/delete', { id: answered.id }, { token: customer.token })).toMatchObject({ code: 40900, message: 'error.ticket_answered' });
  });

  it('When a superadmin deletes a ticket, then its messages, notes and files are gone', async () => {
    const ticket = await openTicket(t, customer.token, {}, [{ name: 'a.png', content: png }]);
    await postForm(t, '/api/manage/ticket/append_message', { id: ticket.id, body: 'note', internal: 'true' }, [{ name: 'n.png', content: png }], support.token);
    const stored = (await storedFiles()).length;
    expect(await t.post('/api/manage/ticket/delete', { id: ticket.id }, { token: support.token })).toMatchObject({ code: 40300 });
    expect(await t.post('/api/manage/ticket/delete', { id: ticket.id }, { token: root })).toMatchObject({ code: 0 });
    await t.services.jobs.drain();
    expect((await storedFiles()).length).toBe(stored - 2);
    const left = await t.services.db.selectFrom('ticket_message').select('id').where('ticket_id', '=', ticket.id).execute();
    expect(left).toEqual([]);
  });
});

describe('The operators’ queue', () => {
  let a: number, b: number, c: number;
  beforeAll(async () => {
    const customer3 = await signUpCustomer(t);
    a = (await openTicket(t, customer3.token, { subject: 'Postfix rejects SMTP relay', priority: 'urgent', category: 'mail_delivery' })).id;
    b = (await openTicket(t, customer3.token, { subject: '域名验证失败', category: 'domains' })).id;
    c = (await openTicket(t, customer3.token, { subject: 'Refund for order', category: 'billing', priority: 'low' })).id;
    await t.post('/api/manage/ticket/update', { id: a, assignee_id: support.id }, { token: root });
    await t.post('/api/manage/ticket/append_message', { id: c, body: 'Refunded' }, { token: billing.token });
  });
  const queue = async (params: Record<string, unknown>, token = support.token) => {
    const reply = await t.post('/api/manage/ticket/list', { page_size: 100, ...params }, { token });
    expect(reply.code).toBe(0);
    return reply.data.list.map((r: { id: number }) => r.id).filter((id: number) => [a, b, c].includes(id));
  };

  it('When filtering by assignee "mine" or "none", status, priority and category, then only those tickets come', async () => {
    expect(await queue({ filter: { assignee_id: 'mine' } })).toEqual([a]);
    const mine = await t.post('/api/manage/ticket/list', { filter: { assignee_id: 'mine', status: 'open' } }, { token: support.token });
    expect(mine.data.list[0]).toMatchObject({ id: a, assignee_id: support.id, assignee_name: support.username });
    expect(await queue({ filter: { assignee_id: 'none' } })).toEqual(expect.arrayContaining([b, c]));
    expect(await queue({ filter: { assignee_id: 'none' } })).not.toContain(a);
    expect(await queue({ filter: { status: 'answered' } })).toEqual([c]);
    expect(await queue({ filter: { priority: ['urgent', 'low'] } })).toEqual(expect.arrayContaining([a, c]));
    expect(await queue({ filter: { category: 'domains' } })).toEqual([b]);
  });

  it('When searching subjects, then word prefixes, Chinese words and ticket numbers match', async () => {
    expect(await queue({ q: 'postf' })).toEqual([a]);
    expect(await queue({ q: 'SMTP rel' })).toEqual([a]);
    expect(await queue({ q: '验证' })).toEqual([b]);
    expect(await queue({ q: '名验证' })).toEqual([b]);
    expect(await queue({ q: '证域' })).toEqual([]);
    const number = (await t.get('/api/manage/ticket/get', { id: c }, { token: support.token })).data.number;
    expect(await queue({ q: `#${number.toLowerCase()}` })).toEqual([c]);
    expect(await queue({ q: '%' })).toEqual([]);
  });

  it('When sorted by waiting time, then the customer who has waited longest comes first; by last activity, the newest', async () => {
    expect((await queue({ sort: 'waiting_since', order: 'asc', filter: { status: 'open' } })).slice(0, 2)).toEqual([a, b]);
    expect((await queue({ sort: 'last_activity_at', order: 'desc' }))[0]).toBe(c);
  });

  it('When the dashboard asks, then the ticket figures under `tickets` are what the queue shows', async () => {
    const stat = await t.post('/api/manage/index/stat', {}, { token: billing.token });
    const listed = async (filter: Record<string, unknown>, extra: Record<string, unknown> = {}) => (await t.post('/api/manage/ticket/list', { filter, page_size: 100, ...extra }, { token: root })).data;
    const toHandle = ['open', 'answered', 'waiting_customer'];
    const longest = (await listed({ status: 'open' }, { sort: 'waiting_since', order: 'asc' })).list[0];
    // This week's first responses, as operators read them on each ticket: their median.
    const tickets = await Promise.all((await listed({})).list.map(async (r: { id: number }) => (await t.get('/api/manage/ticket/get', { id: r.id }, { token: root })).data));
    const week = tickets.filter((r) => r.first_response_seconds !== null && r.first_response_at >= startOfWeek()).map((r) => r.first_response_seconds as number).sort((a, b) => a - b);
    const middle = week.slice(Math.floor((week.length - 1) / 2), Math.floor(week.length / 2) + 1);
    expect(week.length).toBeGreaterThanOrEqual(3);
    expect(stat.data.tickets).toEqual({
      open: (await listed({ status: 'open' })).total,
      active: (await listed({ status: toHandle })).total,
      unassigned: (await listed({ status: toHandle, assignee_id: 'none' })).total,
      waiting_longest: { id: longest.id, number: longest.number, subject: longest.subject, waiting_since: longest.waiting_since },
      median_first_response_seconds_week: Math.round(middle.reduce((sum, s) => sum + s, 0) / middle.length),
    });
  });

  it('When an operator opens a ticket for a customer, then the customer is mailed and it waits on them', async () => {
    const opened = await t.post('/api/manage/ticket/create', { owner_id: customer.id, subject: 'Planned maintenance', category: 'account', message: 'We will restart on Sunday.' }, { token: support.token });
    expect(opened.data).toMatchObject({ status: 'answered', last_reply_by: 'operator', owner_id: customer.id });
    expect((await mailsTo(customer.email)).at(-1)!.subject).toBe(`[#${opened.data.number}] New reply: Planned maintenance`);
    const notCustomer = await t.post('/api/manage/ticket/create', { owner_id: 999_999, subject: 'x', category: 'account', message: 'x' }, { token: support.token });
    expect(notCustomer).toMatchObject({ code: 40000, errors: { owner_id: { message: 'validation.not_a_customer' } } });
  });

  it('When canned replies are kept, then operators list them to insert', async () => {
    const made = await t.post('/api/manage/canned_reply/create', { title: 'IMAP settings', body: 'Server: imap.example\nPort: 993' }, { token: support.token });
    expect(made.code).toBe(0);
    const list = await t.post('/api/manage/canned_reply/list', { q: 'imap' }, { token: billing.token });
    expect(list.data.list).toEqual([expect.objectContaining({ title: 'IMAP settings', body: 'Server: imap.example\nPort: 993' })]);
  });
});
