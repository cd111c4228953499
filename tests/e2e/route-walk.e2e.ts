/**
 * Every route of the web app, walked in Chromium in both languages, with realistic data: a
 * customer with domains, mailboxes, aliases, an alias domain, capacity, orders, points, a ticket
 * and a team; an operator; a mailbox owner. The routes come from the app's own lists — the
 * public pages (src/public/pages.ts) and each area's routes (src/area/routes.ts: its home,
 * profile and pages, and each screen's list, create, update and view pages) — so a screen added
 * later is walked too. Update and view pages open a real record, the first of the screen's list.
 *
 * Each page must: stay where it was opened (no 404, no sign-in), show no error page, log no
 * console error and throw nothing, get no 5xx answer, show no raw translation key, no
 * placeholder text and no empty main area, and have a heading or a list in its main area.
 * A thumbnail of each page and one contact sheet per language go to test-results/e2e/.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { AreaRoute } from '../../src/area/routes';
import CustomerApp from '../../src/customer/CustomerApp';
import { messagesOf } from '../../src/i18n/areaTexts';
import MailboxOwnerApp from '../../src/mailboxOwner/MailboxOwnerApp';
import OperatorApp from '../../src/operator/OperatorApp';
import { publicPages } from '../../src/public/pages';
import { api, apiCustomer, customerSignIn, invitationTokenFor, landedAt, launch, openPage, operatorSignIn, SHOTS, uniqueEmail, type Lang } from './browser';

const areas = { admin: CustomerApp.routes, manage: OperatorApp.routes, mail: MailboxOwnerApp.routes } as const;
type AreaName = keyof typeof areas;

let browser: Browser;
let operator: string;
let customer: Awaited<ReturnType<typeof apiCustomer>>;
const mailbox = { address: '', password: 'mailbox-pass-1', token: '' };
let invitationToken: string;

async function ok<T = any>(reply: Promise<{ code: number; data: T; message: string }>, what: string): Promise<T> {
  const r = await reply;
  if (r.code !== 0) throw new Error(`${what}: ${r.code} ${r.message}`);
  return r.data;
}

/** The customer's world, made through the API as people make it. */
async function buildWorld() {
  operator = (await ok(api('POST', '/api/manage/login/login', inject('operator')), 'operator sign-in')).token;
  customer = await apiCustomer();
  const tag = crypto.randomBytes(3).toString('hex');
  await ok(api('POST', '/api/manage/storage/create', { owner_id: customer.id, size: 4 * 1024 ** 3, label: 'Start' }, operator), 'capacity');
  const domain = await ok(api('POST', '/api/admin/domain/create', { name: `walk-${tag}.example` }, customer.token), 'domain');
  await ok(api('POST', '/api/manage/domain/update', { id: domain.id, status: 'active' }, operator), 'domain verified');
  const second = await ok(api('POST', '/api/admin/domain/create', { name: `walk-${tag}.example.net` }, customer.token), 'second domain');
  await ok(api('POST', '/api/admin/alias_domain/create', { alias_domain_id: second.id, target_domain_id: domain.id }, customer.token), 'alias domain');
  const box = await ok(api('POST', '/api/admin/email/create', { domain_id: domain.id, local_part: 'anna', name: 'Anna', password: mailbox.password, quota: 512 * 1024 ** 2 }, customer.token), 'mailbox');
  mailbox.address = box.address;
  await ok(api('POST', '/api/admin/email/create', { domain_id: domain.id, local_part: 'ben', password: 'mailbox-pass-2', quota: 256 * 1024 ** 2 }, customer.token), 'second mailbox');
  const gone = await ok(api('POST', '/api/admin/email/create', { domain_id: domain.id, local_part: 'old', password: 'mailbox-pass-3', quota: 64 * 1024 ** 2 }, customer.token), 'mailbox to delete');
  await ok(api('POST', '/api/admin/email/delete', { id: gone.id }, customer.token), 'mailbox deleted');
  await ok(api('POST', '/api/admin/alias/create', { domain_id: domain.id, local_part: 'info', goto: [box.address] }, customer.token), 'alias');
  await ok(api('POST', '/api/admin/spam_list/create', { domain_id: domain.id, sender: 'offers@spammer.example', action: 'block' }, customer.token), 'blocked sender');
  mailbox.token = (await ok(api('POST', '/api/mail/login/login', { email: box.address, password: mailbox.password }), 'mailbox sign-in')).token;
  await ok(api('POST', '/api/mail/app_password/create', { name: 'Laptop' }, mailbox.token), 'app password');
  // The shop: a product on promotion, points, one paid and one pending order.
  const product = await ok(
    api('POST', '/api/manage/product/create', { kind: 'storage', name_zh: '存储 1 GB', name_en: 'Storage 1 GB', price: 1000, storage_size: 1024 ** 3, period_months: 12 }, operator),
    'product',
  );
  const hour = 3600_000;
  await ok(
    api(
      'POST',
      '/api/manage/activity/create',
      { name_zh: '开业促销', name_en: 'Opening offer', kind: 'percent', value: 20, product_ids: [product.id], starts_at: new Date(Date.now() - hour).toISOString(), ends_at: new Date(Date.now() + 24 * hour).toISOString() },
      operator,
    ),
    'promotion',
  );
  await ok(api('POST', '/api/manage/user/add_points', { user_id: customer.id, points: 5000, note: 'Welcome', key: crypto.randomUUID() }, operator), 'points');
  await ok(api('POST', '/api/admin/order/create', { product_id: product.id, pay_with: 'points' }, customer.token), 'paid order');
  await ok(api('POST', '/api/admin/order/create', { product_id: product.id }, customer.token), 'pending order');
  // Support: a ticket, a canned reply, a visitor's message.
  await ok(api('POST', '/api/admin/ticket/create', { subject: 'Mail does not arrive', category: 'mail_delivery', message: 'Hello,\nno mail since Monday.' }, customer.token), 'ticket');
  await ok(api('POST', '/api/manage/canned_reply/create', { title: 'Greeting', body: 'Hello, thank you for writing.' }, operator), 'canned reply');
  await ok(api('POST', '/api/message/send', { name: 'Grace', email: 'grace@example.com', subject: 'Pricing', content: 'How much is 10 GiB?' }), 'guest message');
  // The team: a member who accepted, and an invitation still open (its link is the invitation page's).
  const memberEmail = uniqueEmail('member');
  await ok(api('POST', '/api/admin/user/create', { email: memberEmail, username: 'Member', domain_ids: [domain.id] }, customer.token), 'member invitation');
  await ok(api('POST', '/api/admin/login/accept_invitation', { token: await invitationTokenFor(memberEmail), password: 'member-pass-1' }), 'member accepted');
  const invited = uniqueEmail('invited');
  await ok(api('POST', '/api/admin/user/create', { email: invited }, customer.token), 'open invitation');
  invitationToken = await invitationTokenFor(invited);
}

const tokenOf = (area: AreaName) => (area === 'admin' ? customer.token : area === 'manage' ? operator : mailbox.token);

/** The first record of a screen's list, through the area's own list call, for its update or view page. */
async function firstRecordOf(area: AreaName, route: Extract<AreaRoute, { screen: unknown }>): Promise<string> {
  const { apiBase, listVia } = route.screen;
  const reply = listVia === 'query' ? await api('GET', `${apiBase}/list?page=1&page_size=1`, undefined, tokenOf(area)) : await api('POST', `${apiBase}/list`, { page: 1, page_size: 1 }, tokenOf(area));
  const id = reply.data?.list?.[0]?.id;
  if (id === undefined) throw new Error(`no record to open at ${route.path}: the walk's data has none (${reply.code} ${reply.message})`);
  return String(id);
}

/** Where each route is opened: update and view pages with a real record, the two link pages with what their links carry. */
async function urlsOf(area: AreaName): Promise<string[]> {
  const urls: string[] = [];
  for (const route of areas[area]) urls.push('screen' in route && (route.kind === 'update' || route.kind === 'view') ? `${route.path}?id=${await firstRecordOf(area, route)}` : route.path);
  return urls;
}
const publicUrls = () =>
  publicPages.map(({ path: p }) => (p === '/verify' ? `${p}?email=${encodeURIComponent(customer.email)}` : p === '/accept-invitation' ? `${p}?token=${invitationToken}` : p));

/** Texts the app translates: their top-level names (app., ra., resources., error., …) mark a key shown raw. */
function keyPattern(): RegExp {
  const prefixes = new Set(['maildesk']);
  for (const locale of ['en', 'zh'] as const) {
    for (const routes of Object.values(areas)) {
      const screens = routes.flatMap((r) => ('screen' in r ? [r.screen] : []));
      for (const key of Object.keys(messagesOf(locale, [...new Set(screens)]))) prefixes.add(key);
    }
  }
  // A key is a prefix, a dot and lower-case snake_case segments, not inside a host name or address.
  return new RegExp(`(?<![\\w.@/-])(${[...prefixes].join('|')})(\\.[a-z][a-z0-9_]*)+(?![\\w-]*\\.?[\\w-]*@)`, 'g');
}

const PLACEHOLDERS = /\bTODO\b|\bFIXME\b|\blorem\b|\bipsum\b|coming soon|not implemented|under construction|placeholder text|即将推出|敬请期待|尚未实现|暂未实现|开发中/i;
const ERROR_PAGE = /Something went wrong|出错了/;
/** Texts that are the user's data or values to copy (addresses, DNS records), not wording. */
const USER_DATA = '[data-user-data], input, textarea, code, pre, .dns-host, .dns-value, .client-host, .client-username';

interface Verdict {
  url: string;
  problems: string[];
  /** Told with its problems: the requests that failed on the way, what the page showed, its notices, what it still waited for. */
  met: string[];
}

/** What a page shows, read in the page: its path, its main area's text outside user data, whether it has a heading or a list. */
async function readPage(page: Page) {
  return page.evaluate((userData) => {
    const main = document.querySelector('#main-content') ?? document.querySelector('main') ?? document.body;
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || !node.textContent?.trim() || element.closest(userData) || element.closest('script,style,noscript')) continue;
      if (element.getClientRects().length === 0) continue;
      texts.push(node.textContent.trim());
    }
    for (const element of Array.from(document.querySelectorAll<HTMLElement>('[placeholder],[aria-label],[title]'))) {
      for (const name of ['placeholder', 'aria-label', 'title']) {
        const value = element.getAttribute(name);
        if (value) texts.push(value);
      }
    }
    const visible = (e: Element) => e.getClientRects().length > 0;
    // A heading or a list; a form or a record's fields where the page's heading is its title in the app bar (react-admin's).
    const structure = Array.from(main.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading],table,ul,ol,[role=list],[role=grid],[role=table],form,dl,.RaSimpleShowLayout-stack')).some(visible);
    const title = document.querySelector<HTMLElement>('#react-admin-title');
    return {
      path: location.pathname + location.search,
      texts,
      mainText: (main as HTMLElement).innerText.trim(),
      rows: Array.from(main.querySelectorAll('tbody tr')).filter(visible).length,
      structure,
      /** The area page's title (its heading, in the app bar); null on the public pages, which have none. */
      title: title ? title.innerText.trim() : null,
      /** What the app's notices say (a call that failed or timed out shows one). */
      alerts: Array.from(document.querySelectorAll<HTMLElement>('[role=alert]')).filter(visible).map((e) => e.innerText.trim()).filter(Boolean),
      errorPage: document.querySelector('[class*="RaError"]') !== null,
    };
  }, USER_DATA);
}

/** Follows the page's requests in flight, so that a check runs once the page has loaded what it needs. */
function trackRequests(page: Page) {
  const inFlight = new Map<Request, number>();
  let last = Date.now();
  const done = (request: Request) => {
    inFlight.delete(request);
    last = Date.now();
  };
  page.on('request', (request) => {
    inFlight.set(request, Date.now());
    last = Date.now();
  });
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    /**
     * Quiet for `quietMs` since the last request, with no progress bar; `sinceNow`: also since now (a
     * navigation just made may not have sent its requests yet).
     */
    async settled(sinceNow: boolean, quietMs = 350, maxMs = 15_000) {
      if (sinceNow) last = Math.max(last, Date.now());
      const deadline = Date.now() + maxMs;
      while (Date.now() < deadline) {
        if (inFlight.size === 0 && Date.now() - last >= quietMs && (await page.locator('.data-progress, .route-progress').count()) === 0) return;
        await page.waitForTimeout(50);
      }
    },
    /** The requests still unanswered, and for how long. */
    pending: () => [...inFlight].map(([request, at]) => `${request.method()} ${new URL(request.url()).pathname} unanswered after ${Date.now() - at} ms`),
  };
}

/** A page opened in the app as a person moves in it: the router follows the address (no reload), as a menu link does. */
async function go(page: Page, url: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
}

/** Walks the URLs in one page (one session per area), each checked as the file's comment says. */
async function walk(page: Page, urls: string[], label: string, lang: Lang, lists: ReadonlySet<string> = new Set()): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  const keys = keyPattern();
  let current: Verdict | undefined;
  const problem = (text: string) => current?.problems.push(text);
  page.on('console', (message) => {
    if (message.type() === 'error') problem(`console error: ${message.text().slice(0, 200)}`);
  });
  page.on('pageerror', (error) => problem(`uncaught: ${error.message.slice(0, 200)}`));
  page.on('response', (response) => {
    if (response.status() >= 500) problem(`${response.status()} from ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  page.on('requestfailed', (request) => current?.met.push(`${request.method()} ${new URL(request.url()).pathname} failed (${request.failure()?.errorText})`));
  const { settled, pending } = trackRequests(page);
  const dir = path.join(SHOTS, 'route-walk', lang);
  fs.mkdirSync(dir, { recursive: true });
  for (const [index, url] of urls.entries()) {
    current = { url, problems: [], met: [] };
    verdicts.push(current);
    if (index === 0) await page.goto(url);
    else await go(page, url);
    await settled(true);
    // Once loaded, a page has until it shows its content (a heading or a list) to be judged: on a loaded
    // machine the reports page took over 5 s (CI: 'empty main area').
    let seen = await readPage(page);
    const ready = () => seen.structure && seen.mainText.length >= 2 && seen.title !== '' && (!lists.has(url) || seen.rows > 0);
    for (const until = Date.now() + 20_000; !ready() && Date.now() < until; seen = await readPage(page)) {
      await page.waitForTimeout(100);
    }
    // Again quiet: what showing the content asked for has come (no new wait when it asked for nothing).
    await settled(false);
    seen = await readPage(page);
    if (seen.path !== url) problem(`ended at ${seen.path}`);
    if (seen.errorPage || seen.texts.some((text) => ERROR_PAGE.test(text))) problem('error page');
    for (const text of seen.texts) {
      for (const key of text.match(keys) ?? []) problem(`raw key "${key}" in "${text.slice(0, 80)}"`);
      if (PLACEHOLDERS.test(text)) problem(`placeholder text "${text.slice(0, 80)}"`);
    }
    if (seen.mainText.length < 2) problem('empty main area');
    if (!seen.structure) problem('no heading, list, form or record in the main area');
    if (url.startsWith(`/${label}`) && !seen.title) problem('no page title');
    // Every list has records in the walk's data (its update or view page opens the first): it shows them.
    if (lists.has(url) && seen.rows === 0) problem('list shows no records');
    // A failing page says what it showed and met, so that a failure names its cause.
    if (current.problems.length > 0) {
      current.met.push(`shown: "${seen.mainText.replace(/\s+/g, ' ').slice(0, 160)}"`, ...seen.alerts.map((a) => `notice: "${a.slice(0, 160)}"`), ...pending());
    }
    await page.screenshot({ path: path.join(dir, `${label}-${String(index).padStart(2, '0')}.jpg`), type: 'jpeg', quality: 60 });
  }
  return verdicts;
}

/** One image of every page walked in a language: the thumbnails on a grid, each with its address. */
async function contactSheet(lang: Lang) {
  const dir = path.join(SHOTS, 'route-walk', lang);
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.jpg')).sort();
  const captions = JSON.parse(fs.readFileSync(path.join(dir, 'urls.json'), 'utf8')) as Record<string, string>;
  const html = `<!doctype html><meta charset="utf-8"><style>body{margin:8px;font:11px sans-serif;display:grid;grid-template-columns:repeat(8,1fr);gap:6px}figure{margin:0}img{width:100%;border:1px solid #ccc}</style>${files
    .map((f) => `<figure><img src="${f}"><figcaption>${captions[f] ?? f}</figcaption></figure>`)
    .join('')}`;
  fs.writeFileSync(path.join(dir, 'sheet.html'), html);
  const { page } = await openPage(browser, lang);
  await page.goto(`file://${path.join(dir, 'sheet.html')}`);
  await page.waitForLoadState('load');
  await page.screenshot({ path: path.join(SHOTS, `route-walk-sheet-${lang}.png`), fullPage: true });
  await page.context().close();
}

const walked: Record<string, number> = {};

beforeAll(async () => {
  browser = await launch();
  await buildWorld();
}, 120_000);
afterAll(async () => {
  console.log(
    `routes walked: ${Object.entries(walked)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  await browser?.close();
});

it('When the walk reads a page, then it tells raw keys and placeholders from host names, addresses and wording', () => {
  const find = (text: string) => text.match(keyPattern()) ?? [];
  expect(find('Shown: app.nav.profile and resources.email.fields.quota')).toEqual(['app.nav.profile', 'resources.email.fields.quota']);
  expect(find('maildesk.menu.title')).toEqual(['maildesk.menu.title']);
  expect(find('MX mx.maildesk.test, anna@app.example, https://app.example.com/ra.x, Profile')).toEqual([]);
  expect(PLACEHOLDERS.test('Coming soon')).toBe(true);
  expect(PLACEHOLDERS.test('敬请期待')).toBe(true);
  expect(PLACEHOLDERS.test('Out of office')).toBe(false);
  expect(ERROR_PAGE.test('Something went wrong')).toBe(true);
});

// Both languages at once, each in its own browser context: a walk mostly waits for pages to settle.
const LANGS = ['en', 'zh'] as const;
const captions: Record<Lang, Record<string, string>> = { en: {}, zh: {} };

/** Walks the URLs in both languages; every problem found, named by language and URL. */
async function walkBoth(label: string, open: (lang: Lang) => Promise<Page>, urls: string[], lists?: ReadonlySet<string>) {
  const problems = await Promise.all(
    LANGS.map(async (lang) => {
      const page = await open(lang);
      const verdicts = await walk(page, urls, label, lang, lists);
      await page.context().close();
      walked[`${label}/${lang}`] = verdicts.length;
      urls.forEach((url, i) => (captions[lang][`${label}-${String(i).padStart(2, '0')}.jpg`] = url));
      fs.writeFileSync(path.join(SHOTS, 'route-walk', lang, 'urls.json'), JSON.stringify(captions[lang]));
      return verdicts.filter((v) => v.problems.length > 0).map((v) => `${lang} ${v.url}: ${v.problems.join('; ')} [${v.met.join('; ')}]`);
    }),
  );
  expect(problems.flat()).toEqual([]);
}

it('When a visitor opens each public page, in English and in Chinese, then it shows its content and nothing broken', { timeout: 120_000 }, async () => {
  const urls = publicUrls();
  expect(urls.length).toBe(publicPages.length);
  await walkBoth('public', async (lang) => (await openPage(browser, lang)).page, urls);
});

for (const area of Object.keys(areas) as AreaName[]) {
  it(`When the ${area} area's every route is opened in English and in Chinese (lists, real records' pages, forms, pages), then each shows its content and nothing broken`, { timeout: 300_000 }, async () => {
    const signedIn = async (lang: Lang) => {
      const { page } = await openPage(browser, lang);
      if (area === 'admin') {
        await customerSignIn(page, customer.email, customer.password);
        await landedAt(page, /\/admin$/);
      } else if (area === 'manage') {
        await operatorSignIn(page);
      } else {
        await page.goto('/mail/login');
        await page.locator('input[name=email]').fill(mailbox.address);
        await page.locator('input[name=password]').fill(mailbox.password);
        await page.locator('button[type=submit]').click();
        await page.waitForURL(/\/mail$/);
      }
      return page;
    };
    const lists = new Set(areas[area].filter((route) => route.kind === 'list').map((route) => route.path));
    await walkBoth(area, signedIn, await urlsOf(area), lists);
  });
}

it('When the walk is done, then a contact sheet of its pages is written in each language', async () => {
  for (const lang of LANGS) {
    await contactSheet(lang);
    expect(fs.existsSync(path.join(SHOTS, `route-walk-sheet-${lang}.png`))).toBe(true);
  }
});
