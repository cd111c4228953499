/**
 * Support's business rules at their edges: the dashboard's ticket figures, exactly, over tickets
 * in every state; an internal note never reaches the customer by mail, over a whole conversation.
 * This file's app is its own: the figures count every ticket in it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '../../server/core/time.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorWithRole, signUpCustomer, type CustomerSession } from '../helpers/fixtures.js';
import { openTicket, png, postForm } from '../helpers/support.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

let t: TestApp;
let support: Awaited<ReturnType<typeof operatorWithRole>>;
let customer: CustomerSession;
beforeAll(async () => {
  // Business time moves to a fixed week ahead; sessions made now must outlast the jump.
  t = await startTestApp({ SESSION_IDLE_MINUTES: '10000000', SESSION_ABSOLUTE_HOURS: '1000000' });
  support = await operatorWithRole(t, 'support');
  customer = await signUpCustomer(t);
  await t.post('/api/admin/me/update_locale', { locale: 'en' }, { token: customer.token });
});
afterEach(() => setClock());
afterAll(() => t.close());

/** A Wednesday 09:00 UTC next year: the whole story happens inside one week (Monday to Sunday, UTC). */
function wednesdayNextYear() {
  const march = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 2, 10, 9));
  return march.getTime() + ((3 - march.getUTCDay() + 7) % 7) * DAY;
}

const asOperator = {
  reply: (id: number, body: string, extra: Record<string, unknown> = {}) => t.post('/api/manage/ticket/append_message', { id, body, ...extra }, { token: support.token }),
  update: (id: number, change: Record<string, unknown>) => t.post('/api/manage/ticket/update', { id, ...change }, { token: support.token }),
};
const mailsTo = async (to: string) => (await t.outbox()).filter((m) => m.to === to);

describe('the dashboard’s ticket figures', () => {
  it('When tickets are open, answered, waiting, closed, assigned or not, then index/stat counts exactly the ones still to handle, and the median first response of the week', async () => {
    const start = wednesdayNextYear();
    const at = (offset: number) => setClock(new Date(start + offset));
    /** A ticket the customer opens at `offset`; the operator answers `answerAfter` ms later (with a status), and may assign it. */
    const ticket = async (offset: number, story: { assign?: boolean; answerAfter?: number; status?: string; closeByCustomer?: boolean; closeByOperator?: boolean } = {}) => {
      at(offset);
      const opened = await openTicket(t, customer.token, { subject: `Ticket at ${offset / MINUTE} minutes` });
      if (story.assign) expect((await asOperator.update(opened.id, { assignee_id: support.id })).code).toBe(0);
      if (story.answerAfter !== undefined) {
        // 200 ms past the whole second: the first response counts the seconds the same on any machine.
        at(offset + story.answerAfter + 200);
        expect((await asOperator.reply(opened.id, 'Answer', story.status ? { status: story.status } : {})).code).toBe(0);
      }
      if (story.closeByOperator) expect((await asOperator.update(opened.id, { status: 'closed' })).code).toBe(0);
      if (story.closeByCustomer) expect((await t.post('/api/admin/ticket/update', { id: opened.id, status: 'closed' }, { token: customer.token })).code).toBe(0);
      return opened;
    };

    const waitingOpen = await ticket(0);
    const assignedOpen = await ticket(MINUTE, { assign: true });
    await ticket(2 * MINUTE, { answerAfter: 600_000 }); // answered, unassigned: 600 s
    await ticket(3 * MINUTE, { assign: true, answerAfter: 1_800_000, status: 'waiting_customer' }); // 1,800 s
    await ticket(4 * MINUTE, { answerAfter: 120_000, status: 'closed' }); // closed, unassigned: 120 s
    await ticket(5 * MINUTE, { closeByCustomer: true }); // closed, unassigned, never answered
    await ticket(6 * MINUTE, { assign: true, answerAfter: 1_000_000, closeByOperator: true }); // closed, assigned: 1,000 s
    // An internal note is no response: the first ticket still waits, unanswered.
    at(50 * MINUTE);
    expect((await asOperator.reply(waitingOpen.id, 'Looking into it', { internal: true })).code).toBe(0);

    at(60 * MINUTE);
    const figures = async () => (await t.post('/api/manage/index/stat', {}, { token: support.token })).data.tickets;
    /** The longest-waiting ticket as the dashboard names it. */
    const waiting = async ({ id }: { id: number }) => {
      const { number, subject, waiting_since } = (await t.get('/api/manage/ticket/get', { id }, { token: support.token })).data;
      return { id, number, subject, waiting_since };
    };
    // 120, 600, 1,000 and 1,800 s: the mean of the middle two.
    const median_first_response_seconds_week = 800;
    expect(await figures()).toEqual({ open: 2, active: 4, unassigned: 2, waiting_longest: await waiting(waitingOpen), median_first_response_seconds_week });

    // The customer withdraws from the longest-waiting one by closing it: it leaves every count.
    expect((await t.post('/api/admin/ticket/update', { id: waitingOpen.id, status: 'closed' }, { token: customer.token })).code).toBe(0);
    expect(await figures()).toEqual({ open: 1, active: 3, unassigned: 1, waiting_longest: await waiting(assignedOpen), median_first_response_seconds_week });

    // Next week, this week's first responses are last week's.
    at(7 * DAY);
    expect((await figures()).median_first_response_seconds_week).toBeNull();
  });
});

describe('internal notes', () => {
  it('When operators add notes throughout a conversation, then the customer is mailed for no note, and none of their mails ever holds a note’s text', async () => {
    const notes = ['NOTE-1 customer is on the watch list', 'NOTE-2 refund was refused last year', 'NOTE-3 do not offer a discount'];
    const ticket = await openTicket(t, customer.token, { subject: 'Mail stopped' });
    const before = (await mailsTo(customer.email)).length;
    const mailedSince = async () => (await mailsTo(customer.email)).slice(before);
    const note = async (body: string) => {
      const mailed = (await mailedSince()).length;
      const { status } = (await t.get('/api/admin/ticket/get', { id: ticket.id }, { token: customer.token })).data;
      // A status sent with a note is not the customer's business either: it changes nothing.
      const added = await postForm(t, '/api/manage/ticket/append_message', { id: ticket.id, body, internal: 1, status: 'closed' }, [{ name: 'trace.png', content: png }], support.token);
      expect(added).toMatchObject({ code: 0, data: { status } });
      expect(await mailedSince()).toHaveLength(mailed);
    };

    await note(notes[0]);
    expect((await asOperator.reply(ticket.id, 'Please check the spam folder.')).code).toBe(0);
    await note(notes[1]);
    expect((await t.post('/api/admin/ticket/append_message', { id: ticket.id, body: 'Nothing there.' }, { token: customer.token })).code).toBe(0);
    await note(notes[2]);
    expect((await asOperator.reply(ticket.id, 'Fixed on our side.', { status: 'waiting_customer' })).code).toBe(0);
    expect((await asOperator.update(ticket.id, { status: 'closed' })).code).toBe(0);

    const mailed = await mailedSince();
    expect(mailed.map((m) => m.subject)).toEqual([
      `[#${ticket.number}] New reply: Mail stopped`,
      `[#${ticket.number}] New reply: Mail stopped`,
      `[#${ticket.number}] Ticket closed: Mail stopped`,
    ]);
    for (const mail of mailed) expect(`${mail.subject}\n${mail.text}`).not.toMatch(/NOTE-\d/);
  });
});
