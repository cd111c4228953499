/**
 * Support in the browser: a customer opens a ticket with an attachment; an operator finds it
 * in the queue, adds an internal note and replies with a canned reply; the customer sees the
 * reply (not the note), answers and closes the ticket. A customer asks about an order from
 * its page; both areas show the order's number, linking to the order. Screenshots in zh and en.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { api, apiCustomer, customerSignIn, landedAt, launch, openPage, operatorSignIn, shot, type Lang } from './browser';

let browser: Browser;
let customer: Awaited<ReturnType<typeof apiCustomer>>;
let ticketId = '';
const tag = Date.now().toString(36);
const subject = `Mail to sales bounces ${tag}`;
const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

beforeAll(async () => {
  browser = await launch();
  customer = await apiCustomer();
  const { username, password } = inject('operator');
  const login = await api('POST', '/api/manage/login/login', { username, password });
  const reply = await api('POST', '/api/manage/canned_reply/create', { title: 'IMAP', body: 'Please use imap.example.com, port 993, SSL/TLS.\nYour full address is the user name.' }, login.data.token);
  expect(reply.code).toBe(0);
});
afterAll(async () => {
  await browser?.close();
});

async function signedInCustomer(lang: Lang = 'zh') {
  const opened = await openPage(browser, lang);
  await customerSignIn(opened.page, customer.email, customer.password);
  await landedAt(opened.page, /\/admin$/);
  return opened;
}

async function rootToken() {
  const { username, password } = inject('operator');
  return (await api('POST', '/api/manage/login/login', { username, password })).data.token as string;
}

async function signedInOperator(lang: Lang = 'zh') {
  const opened = await openPage(browser, lang);
  await operatorSignIn(opened.page);
  return opened;
}

async function pick(page: Page, source: string, option: string) {
  await page.locator(`.ra-input-${source} [role=combobox]`).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const messages = (page: Page) => page.locator('.ticket-message-body').allTextContents();

describe('support', () => {
  it('a customer opens a ticket with an attachment', async () => {
    const { page, errors } = await signedInCustomer();
    await page.getByRole('menuitem', { name: '工单' }).click();
    await page.waitForURL(/\/admin\/ticket$/);
    await page.getByRole('link', { name: '新建' }).click();
    await page.waitForURL(/\/admin\/ticket\/create$/);
    await page.locator('input[name=subject]').fill(subject);
    await pick(page, 'category', '邮件投递');
    await page.locator('textarea[name=message]').fill('Hello,\nmail to sales@ bounces since Monday.\n<script>alert(1)</script>');
    await page.locator('.ticket-attachments input[type=file]').setInputFiles({ name: 'bounce.png', mimeType: 'image/png', buffer: png });
    await shot(page, 'ticket-create');
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL(/\/admin\/ticket$/);
    const row = page.locator('tr', { hasText: subject });
    await expect(row.locator('.status-open').textContent()).resolves.toBe('待回复');
    // The subject, as a person opens it: which columns a row shows depends on the screen's width.
    await row.getByText(subject).click();
    await page.waitForURL(/\/admin\/ticket\/view\?id=\d+$/);
    ticketId = new URL(page.url()).searchParams.get('id')!;
    // Plain text: the markup is shown as typed, line breaks kept; nothing ran.
    await page.locator('.ticket-message-body').first().waitFor();
    await expect(messages(page)).resolves.toEqual(['Hello,\nmail to sales@ bounces since Monday.\n<script>alert(1)</script>']);
    await expect(page.locator('.ticket-attachment').textContent()).resolves.toContain('bounce.png');
    expect(errors).toEqual([]);
  });

  it('an operator finds it in the queue, adds a note and replies with a canned reply', async () => {
    const { page, errors } = await signedInOperator();
    await page.goto('/manage/ticket');
    await page.locator('input[name=q]').fill(subject.split(' ').slice(0, 3).join(' '));
    // The search reaches the address bar after a debounce; a row clicked before it would be
    // left again when it does (the list navigates to its filtered address).
    await page.waitForURL((url) => url.searchParams.get('filter')?.includes('Mail to sales') ?? false);
    const row = page.locator('tr', { hasText: subject });
    await row.waitFor();
    await shot(page, 'ticket-queue');
    await row.getByText(subject).click();
    await page.waitForURL(/\/manage\/ticket\/view\?id=\d+$/);
    await page.locator('.ticket-assign-me').click();
    await expect.poll(() => page.locator('.ticket-assignee').textContent()).toBe(inject('operator').username);

    await page.locator('.ticket-note-switch input').check();
    await page.locator('textarea.ticket-reply-body:not([aria-hidden])').fill('Internal: their MX points at the old server.');
    await page.locator('.ticket-send').click();
    await page.locator('.ticket-message-note').waitFor();

    await page.locator('.ticket-note-switch input').uncheck();
    await page.locator('.canned-reply-picker [role=combobox]').click();
    await page.getByRole('option', { name: 'IMAP' }).click();
    await expect(page.locator('textarea.ticket-reply-body:not([aria-hidden])').inputValue()).resolves.toContain('port 993');
    await page.locator('.ticket-send').click();
    await page.locator('.ticket-message-operator').waitFor();
    await expect.poll(() => page.locator('.ticket-status').textContent()).toContain('已回复');
    await shot(page, 'ticket-operator-view');
    expect(errors).toEqual([]);
  });

  it('the customer sees the reply but not the note, answers, and closes the ticket', async () => {
    const { page, errors } = await signedInCustomer();
    await page.goto(`/admin/ticket/view?id=${ticketId}`);
    await page.locator('.ticket-message-operator').waitFor();
    const seen = await messages(page);
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe('Please use imap.example.com, port 993, SSL/TLS.\nYour full address is the user name.');
    expect(seen.join()).not.toContain('Internal');
    await page.locator('textarea.ticket-reply-body:not([aria-hidden])').fill('Thank you, it works now.');
    await page.locator('.ticket-send').click();
    await expect.poll(() => messages(page)).toHaveLength(3);
    await page.locator('.ticket-close').click();
    await page.locator('.ticket-view .status-closed').waitFor();
    await shot(page, 'ticket-customer-view');
    expect(errors).toEqual([]);
  });

  it('a customer asks about an order from its page; the ticket and the queue name the order by its number and link to it', { timeout: 180_000 }, async () => {
    // A pending order of the customer's, made through the API (the shop's own browser test buys in the browser).
    const operator = await rootToken();
    const product = await api('POST', '/api/manage/product/create', { kind: 'storage', name_zh: `工单存储 ${tag}`, name_en: `Ticket storage ${tag}`, price: 900, storage_size: 256 * 1024 ** 2, period_months: 1 }, operator);
    expect(product.code).toBe(0);
    const order = await api('POST', '/api/admin/order/create', { product_id: product.data.id, pay_with: 'later' }, customer.token);
    expect(order.code).toBe(0);
    const { number } = order.data as { number: string };

    const { page, errors } = await signedInCustomer();
    // The dashboard's recent orders name it by its number and lead to its page.
    await page.locator('.recent-orders .order-number', { hasText: number }).click();
    await page.waitForURL(new RegExp(`/admin/order/view\\?id=${order.data.id}$`));
    await expect(page.locator('.view-order').textContent()).resolves.toContain(number);
    await page.locator('.ask-about-order').click();
    await page.waitForURL(/\/admin\/ticket\/create\?source=/);
    // The form is filled in: about this order, billing, a subject naming its number.
    await expect.poll(() => page.locator('input[name=subject]').inputValue()).toBe(`关于订单 ${number} 的问题`);
    await expect.poll(() => page.locator('.ra-input-link_type').textContent()).toContain('订单');
    await expect.poll(() => page.locator('.ra-input-link_id input').inputValue()).toBe(number);
    await page.locator('textarea[name=message]').fill('I was charged twice for this order?');
    await shot(page, 'ticket-create-about-order');
    await page.getByRole('button', { name: '保存' }).click();
    await page.waitForURL(/\/admin\/ticket$/);
    await page.locator('tr', { hasText: `关于订单 ${number} 的问题` }).getByText(`关于订单 ${number} 的问题`).click();
    await page.waitForURL(/\/admin\/ticket\/view\?id=\d+$/);
    const aboutOrder = new URL(page.url()).searchParams.get('id')!;
    const chip = page.locator('.ticket-link-order');
    await expect(chip.textContent()).resolves.toBe(`订单: ${number}`);
    await shot(page, 'ticket-about-order');
    await chip.click();
    await page.waitForURL(new RegExp(`/admin/order/view\\?id=${order.data.id}$`));
    // Open on the dashboard too.
    await page.goto('/admin');
    await page.locator('.open-tickets', { hasText: `关于订单 ${number} 的问题` }).waitFor();
    expect(errors).toEqual([]);

    const staff = await signedInOperator();
    await staff.page.goto(`/manage/ticket/view?id=${aboutOrder}`);
    const operatorChip = staff.page.locator('.ticket-link-order');
    await expect(operatorChip.textContent()).resolves.toBe(`订单: ${number}`);
    await shot(staff.page, 'ticket-operator-about-order');
    await operatorChip.click();
    await staff.page.waitForURL(new RegExp(`/manage/order/view\\?id=${order.data.id}$`));
    await expect(staff.page.locator('.view-order').textContent()).resolves.toContain(number);
    expect(staff.errors).toEqual([]);
  });

  it.each(['zh', 'en'] as const)('screenshots in %s: the customer’s list and conversation, the queue and the operator’s view, the dashboards', async (lang) => {
    const customerPage = await signedInCustomer(lang);
    await customerPage.page.locator('.open-tickets').waitFor();
    await customerPage.page.goto('/admin/ticket');
    await customerPage.page.locator('tr', { hasText: subject }).waitFor();
    await shot(customerPage.page, 'tickets', lang);
    await customerPage.page.goto(`/admin/ticket/view?id=${ticketId}`);
    await customerPage.page.locator('.ticket-message-operator').waitFor();
    await shot(customerPage.page, 'ticket-view', lang);
    await customerPage.page.goto('/admin/ticket/create');
    await customerPage.page.locator('input[name=subject]').waitFor();
    await shot(customerPage.page, 'ticket-form', lang);

    const operator = await signedInOperator(lang);
    await operator.page.locator('.ticket-figures').waitFor();
    await shot(operator.page, 'operator-dashboard-tickets', lang);
    await operator.page.goto('/manage/ticket');
    await operator.page.locator('tr', { hasText: subject }).waitFor();
    await shot(operator.page, 'ticket-queue', lang);
    await operator.page.goto(`/manage/ticket/view?id=${ticketId}`);
    await operator.page.locator('.ticket-message-note').waitFor();
    await shot(operator.page, 'ticket-operator', lang);
    expect([...customerPage.errors, ...operator.errors]).toEqual([]);
    // Seven pages in two areas: more than one flow's time on a shared machine.
  }, 240_000);
});
