/**
 * Counts read with their nouns' plural forms ("1 mailbox", "2 mailboxes"), through polyglot's
 * smart_count as the app translates them (and messageText as the server does), and no English
 * text of ours or the server's says "(s)" or puts a number before a plural noun without plural forms.
 */
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { describe, expect, it } from 'vitest';
import { messagesOf } from '../../src/i18n/areaTexts';
import { countPhrases } from '../../src/imports/importsApi';
import { messageText, serverMessages } from '../../resources/messages';
import { countingProvider } from '../../src/i18n';

const translatorOf = (locale: 'en' | 'zh') => {
  const provider = polyglotI18nProvider(() => messagesOf(locale), locale);
  return (key: string, options?: Record<string, unknown>) => provider.translate(key, options);
};

type Tree = { [key: string]: Tree | string };
const textsUnder = (tree: Tree, prefix: string): [string, string][] =>
  Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : textsUnder(value, `${prefix}${key}.`)));

describe('counts in the imports', () => {
  it('When one of a kind was read, then English says "1 mailbox", two say "2 mailboxes"; Chinese has one form', () => {
    const en = translatorOf('en');
    expect(en('app.imports.mapping_intro', countPhrases(en, { domains: 1, mailboxes: 1, aliases: 2, alias_domains: 0, vacations: 1 }))).toMatch(
      /^1 domain, 1 mailbox, 2 aliases, 0 alias domains and 1 vacation message were read\./,
    );
    expect(en('app.imports.holds', countPhrases(en, { mailboxes: 2, aliases: 1 }))).toBe('2 mailboxes, 1 alias');
    expect(en('app.imports.errors_title', { smart_count: 1 })).toBe('1 problem: correct it and check again');
    expect(en('app.imports.errors_title', { smart_count: 3 })).toBe('3 problems: correct them and check again');
    expect(en('app.imports.file_chosen', { name: 'a.csv', smart_count: 1 })).toBe('a.csv: 1 row');
    expect(en('app.imports.state_done', { smart_count: 1, created: 1 })).toBe('Done: 1 item, 1 created');
    expect(en('app.imports.weak_intro', { smart_count: 1 })).toMatch(/^1 mailbox password is still stored/);
    const zh = translatorOf('zh');
    expect(zh('app.imports.holds', countPhrases(zh, { mailboxes: 1, aliases: 2 }))).toBe('1 个邮箱，2 个别名');
    expect(zh('app.imports.errors_title', { smart_count: 2 })).toBe('2 处问题：请更正后再检查');
  });

  it('When an English text counts, then it has plural forms (no "(s)", no number before a plural noun without them)', () => {
    // Ours (react-admin's own texts, ra.*, are its translators'), the web app's and the server's.
    const texts = [...textsUnder(messagesOf('en') as unknown as Tree, '').filter(([key]) => !key.startsWith('ra.')), ...textsUnder(serverMessages.en as unknown as Tree, 'server.')];
    expect(texts.length).toBeGreaterThan(1000);
    const countedNoun = /%\{(?!smart_count)\w+\} (?:[A-Za-z]+ )?(?:items|files|bytes|parts|times|decimals|blocks|months|mailboxes|aliases|domains|points|seconds|minutes|hours|days|rows|lines|problems|characters|passkeys|passwords|calls|addresses|copies|messages|records|tries|codes|keys|members|tickets|orders|products|customers|invitations|reports|sessions|accounts)\b/;
    const wrong = texts.filter(([, text]) => /\w\((s|es)\)/.test(text) || (countedNoun.test(text) && !text.includes('smart_count') && !text.includes(' |||| ')));
    expect(wrong).toEqual([]);
  });
});

describe('counts in what the server says (e-mails, the command line, CSV reports)', () => {
  it('When the server fills a message with a count, then English takes the form for one or for many; Chinese its one form', () => {
    expect(messageText('en', 'error.mailbox_limit', { domain: 'a.example', smart_count: 1 })).toBe('The domain a.example may have at most 1 mailbox.');
    expect(messageText('en', 'error.mailbox_limit', { domain: 'a.example', smart_count: 2 })).toBe('The domain a.example may have at most 2 mailboxes.');
    expect(messageText('en', 'validation.too_many', { smart_count: 0 })).toBe('At most 0 items');
    expect(messageText('zh', 'error.alias_limit', { domain: 'a.example', smart_count: 1 })).toBe('域名 a.example 最多可以有 1 个别名。');
  });

  it('When a person meets a count of 1 (a wait, a problem, an order), then English says it in the singular, by e-mail and in the app alike', () => {
    expect(messageText('en', 'error.rate_limited', { retry_after: 1, smart_count: 1 })).toBe('Too many attempts. Try again in 1 second.');
    expect(messageText('en', 'error.rate_limited', { retry_after: 30, smart_count: 30 })).toBe('Too many attempts. Try again in 30 seconds.');
    expect(messageText('en', 'error.csv_invalid', { count: 1, smart_count: 1 })).toBe('The file has 1 problem; nothing was imported. Correct the line named and try again.');
    expect(messageText('en', 'shop.product_has_orders', { orders: 1, smart_count: 1, name_en: 'Storage 1 GB' })).toMatch(/^1 order refers to “Storage 1 GB”, so it cannot be deleted: the order names it\./);
    expect(messageText('en', 'validation.too_long', { max: 1, smart_count: 1 })).toBe('At most 1 character');
    expect(messageText('zh', 'error.rate_limited', { retry_after: 1, smart_count: 1 })).toBe('尝试次数过多，请在 1 秒后重试。');
    expect(messageText('zh', 'error.csv_invalid', { count: 1, smart_count: 1 })).toMatch(/^文件中有 1 处问题/);
    expect(messageText('zh', 'shop.product_has_orders', { orders: 1, smart_count: 1, name_zh: '存储 1 GB' })).toMatch(/^有 1 个订单引用了“存储 1 GB”/);

    // The app shows the server's answers with the params it sent, through polyglot.
    const en = translatorOf('en');
    const zh = translatorOf('zh');
    expect(en('error.rate_limited', { retry_after: 1, smart_count: 1 })).toBe('Too many attempts. Try again in 1 second.');
    expect(en('error.csv_invalid', { count: 3, smart_count: 3 })).toBe('The file has 3 problems; nothing was imported. Correct the lines named and try again.');
    expect(en('shop.product_has_orders', { orders: 2, smart_count: 2, name_en: 'X' })).toMatch(/^2 orders refer to “X”/);
    expect(zh('error.rate_limited', { retry_after: 1, smart_count: 1 })).toBe('尝试次数过多，请在 1 秒后重试。');
  });

  it('When the app counts one of something (a month, a block, a mailbox, a message), then English says it in the singular; Chinese the same with its one form', () => {
    const en = translatorOf('en');
    const zh = translatorOf('zh');
    expect(en('app.business.renew_with', { smart_count: 1, price: '€5.00' })).toBe('Renew for 1 month: €5.00');
    expect(en('app.business.renew_with', { smart_count: 12, price: '€50.00' })).toBe('Renew for 12 months: €50.00');
    expect(en('app.storage.figures', { capacity: '1 GiB', available: '0 B', storage_max: '1 GiB', blocks: en('app.storage.blocks', { smart_count: 1 }), mailboxes: en('app.storage.mailboxes', { smart_count: 1 }) })).toBe(
      'Capacity 1 GiB in 1 block; 0 B free to give to mailboxes; 1 mailbox; largest quota 1 GiB.',
    );
    expect(en('app.mail_copy.progress', { done: 0, smart_count: 1 })).toBe('0 of 1 message in the mailbox');
    expect(en('app.list.total_about', { total: '1', smart_count: 1 })).toMatch(/^About 1 record \(/);
    expect(en('app.list.total_about', { total: '12,345', smart_count: 12345 })).toMatch(/^About 12,345 records \(/);
    expect(en('app.reports.advice.forwarded', { organisation: 'Example', smart_count: 1 })).toMatch(/^Example passed on 1 message whose DKIM signature no longer matched: a forwarding service or mailing list changed it on the way\./);
    expect(en('app.pay_points.confirm', { smart_count: 1, money: '€0.01', what: 'X', balance: 5, after: 4 })).toBe('Pay 1 point (€0.01) for X? Your balance goes from 5 to 4.');
    expect(zh('app.business.renew_with', { smart_count: 1, price: '¥5.00' })).toBe('续费 1 个月：¥5.00');
    expect(zh('app.storage.figures', { capacity: '1 GiB', available: '0 B', storage_max: '1 GiB', blocks: zh('app.storage.blocks', { smart_count: 1 }), mailboxes: zh('app.storage.mailboxes', { smart_count: 2 }) })).toBe(
      '总容量 1 GiB（1 个存储块）；还可分配 0 B；共 2 个邮箱；单个邮箱最大配额 1 GiB。',
    );
    expect(zh('app.mail_copy.progress', { done: 0, smart_count: 1 })).toBe('邮箱中已有 0 / 1 封邮件');
  });
});

describe('counts kept from before the texts had plural forms', () => {
  it('When a stored refusal or import error names its count without smart_count, then the app shows one form, taken by its first number', () => {
    const provider = countingProvider(polyglotI18nProvider(() => messagesOf('en'), 'en'));
    expect(provider.translate('report_refused.zip_entries', { count: 1, max: 50 })).toBe('The zip file holds 1 file (at most 50)');
    expect(provider.translate('report_refused.zip_entries', { count: 60, max: 50 })).toBe('The zip file holds 60 files (at most 50)');
    // A count sent as it should be wins.
    expect(provider.translate('error.mailbox_limit', { limit: 3, smart_count: 1, domain: 'a.example' })).toBe('The domain a.example may have at most 1 mailbox.');
  });
});
