/**
 * Loose ids, generated from what the app serves: every call (public, /api/admin, /api/manage,
 * /api/mail) whose OpenAPI description names an id-like field — `id`, `*_id`, `*_ids`, or any
 * field declared as an id (a whole number from 1 to 2^53 - 1) — and every list filter on an id
 * or a reference of a declared resource, gets the loose forms of a real id: given twice, in list
 * or object form, padded, with a decimal point, an exponent, hex, a sign, leading zeros, above
 * 2^53, as a list or object in JSON, a word where a number is expected. The ids are those of a
 * second customer's records (made first, so that "1" is theirs), sent by the first customer, an
 * operator or a mailbox owner as the call wants. Each answer must refuse the field itself
 * (40000 with the field named, HTTP 4xx), change no row, and carry the API's security headers.
 * A call added later is swept without touching this file; a failure names the call and the form.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathOf, type ResourceDeclaration } from '../../resources/define.js';
import { capabilities } from '../../server/capabilities.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, operatorWithRole, signUpCustomer, teamMemberOf, uniqueEmail, type CustomerSession } from '../helpers/fixtures.js';
import { GiB, mailboxOwner, mailFixtures } from '../helpers/mail-fixtures.js';
import { shopFixtures } from '../helpers/shop-fixtures.js';
import { openTicket, png } from '../helpers/support.js';

const MAX_ID = Number.MAX_SAFE_INTEGER;

let t: TestApp;
const tokens = { public: '', customer: '', operator: '', mailbox: '' };
let document: { paths: Record<string, Record<string, any>> };
/** A real id of each kind the fixture made: the second customer's where the record is a customer's. */
let jobId: string;

/** One customer's hosted mail, shop and support records, made through the API as people make them. */
async function customerWorld(customer: CustomerSession, productId: number) {
  const mail = mailFixtures(t);
  const shop = shopFixtures(t);
  await mail.grant(customer.id, GiB);
  const domain = await mail.activeDomain(customer);
  const second = await mail.pendingDomain(customer);
  const owner = await mailboxOwner(t, customer, { domainId: domain.id });
  await mail.alias(customer.token, domain.id, owner.address);
  await shop.ok(t.post('/api/admin/alias_domain/create', { alias_domain_id: second.id, target_domain_id: domain.id }, { token: customer.token }), 'alias domain');
  await shop.ok(t.post('/api/mail/app_password/create', { name: 'Laptop' }, { token: owner.token }), 'app password');
  const gone = await mail.mailbox(customer.token, domain.id);
  await shop.ok(t.post('/api/admin/email/delete', { id: gone.id }, { token: customer.token }), 'mailbox deletion');
  await shop.grantPoints(customer.id, 5);
  await shop.order(customer.token, { product_id: productId });
  await openTicket(t, customer.token, {}, [{ name: 'a.png', content: png, type: 'image/png' }]);
  await teamMemberOf(t, customer, { domain_ids: [domain.id] });
  await shop.ok(t.post('/api/admin/user/create', { email: uniqueEmail('invited') }, { token: customer.token }), 'invitation');
  return owner;
}

beforeAll(async () => {
  t = await startTestApp();
  const root = await operatorLogin(t);
  const shop = shopFixtures(t);
  const product = await shop.storageProduct({ price: 1 });
  await shop.promotion([product.id], { value: 1 });
  await shop.ok(t.post('/api/manage/canned_reply/create', { title: 'Hi', body: 'Hello' }, { token: root }), 'canned reply');
  await t.post('/api/message/send', { name: 'Visitor', email: 'visitor@example.com', content: 'Hello' });
  // The second customer's records come first: id 1 of a customer's table is theirs, never the caller's.
  const other = await signUpCustomer(t);
  await customerWorld(other, product.id);
  const customer = await signUpCustomer(t);
  const owner = await customerWorld(customer, product.id);
  await operatorWithRole(t, 'support');
  await t.services.jobs.drain();
  jobId = (await t.services.jobs.list({ page: 1, pageSize: 1 })).list[0].id;
  tokens.customer = customer.token;
  tokens.operator = root;
  tokens.mailbox = owner.token;
  document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
}, 120_000);
afterAll(() => t?.close());

/** Every row of every table of ours, but the idle clock a used session refreshes. */
async function snapshot(): Promise<string> {
  const tables = (await t.services.db.introspection.getTables())
    .filter((table) => !table.schema || table.schema === 'public')
    .map((table) => table.name)
    .filter((name) => !name.startsWith('kysely_'))
    .sort();
  const rows = await Promise.all(
    tables.map(async (table) => {
      const all = await (t.services.db as any).selectFrom(table).selectAll().execute();
      return [table, all.map((row: Record<string, unknown>) => JSON.stringify(table === 'session' ? { ...row, last_seen_at: undefined } : row)).sort()];
    }),
  );
  return JSON.stringify(rows);
}

const ID_NAME = /^(id|ids)$|_ids?$/;
const isIdSchema = (s: any) => s?.type === 'integer' && s.minimum === 1 && s.maximum === MAX_ID;
const nullable = (s: any) => Boolean(s?.anyOf?.some((o: any) => o.type === 'null'));
const idOf = (s: any) => (s?.anyOf ? s.anyOf.find((o: any) => o.type !== 'null') : s);
/** Whether a declared field carries an id: by its name, or by its schema being the id schema. */
const isIdField = (name: string, schema: any) => ID_NAME.test(name) || isIdSchema(idOf(schema)) || isIdSchema(idOf(schema)?.items);

type IdKind = 'number' | 'numbers' | 'string';
const kindOf = (schema: any): IdKind => (idOf(schema)?.type === 'array' ? 'numbers' : idOf(schema)?.type === 'string' ? 'string' : 'number');

/** Loose forms of a real id `n` in a JSON body (or a form's field), for a field that takes one number. */
function looseJsonValues(n: string, allowsNull: boolean): [string, unknown][] {
  const forms: [string, unknown][] = [
    ['decimal point', `${n}.0`],
    ['leading space', ` ${n}`],
    ['trailing space', `${n} `],
    ['exponent', `${n}e0`],
    ['hex', `0x${Number(n).toString(16)}`],
    ['plus sign', `+${n}`],
    ['leading zero', `0${n}`],
    ['negative number', -Number(n)],
    ['negative string', `-${n}`],
    ['zero', 0],
    ['fraction', Number(n) + 0.5],
    ['2^53', 2 ** 53],
    ['above 2^53', 2 ** 53 + 2],
    ['above 2^53 as text', '9007199254740993'],
    ['20 digits', '99999999999999999999'],
    ['1e21', 1e21],
    ['word', 'abc'],
    ['empty string', ''],
    ['boolean', true],
    ['array', [Number(n)]],
    ['array of text', [n]],
    ['object', { id: Number(n) }],
    ['empty object', {}],
    ['JSON text of an array', `[${n}]`],
    ['comma list', `${n},${n}`],
    ['full-width digit', String.fromCharCode(0xff10 + (Number(n) % 10))],
    ['NUL after', `${n}\u0000`],
  ];
  // Where null is a value (no assignee, no block to renew), a form post's empty field is its spelling.
  return allowsNull ? forms.filter(([what]) => what !== 'empty string') : [...forms, ['null', null]];
}

/** Loose forms of a list of real ids: the list's items loose, or the list not a list. */
function looseJsonLists(n: string): [string, unknown][] {
  return [
    ...looseJsonValues(n, true)
      .filter(([, value]) => !Array.isArray(value))
      .map(([what, value]): [string, unknown] => [`item: ${what}`, [value]]),
    ['one number', Number(n)],
    ['one decimal string', n],
    ['object with index keys', { 0: Number(n) }],
    ['nested list', [[Number(n)]]],
    ['JSON text of a list', `[${n}]`],
  ];
}

/** Loose forms of a job's id (a decimal string on SQLite, a UUID in pg-boss). */
function looseJobIds(id: string): [string, unknown][] {
  return [
    ['leading space', ` ${id}`],
    ['trailing space', `${id} `],
    ['tab', `\t${id}`],
    ['upper case', id.toUpperCase() === id ? `0${id}` : id.toUpperCase()],
    ['leading zero', `0${id}`],
    ['decimal point', `${id}.0`],
    ['braces', `{${id}}`],
    ['number', /^\d+$/.test(id) ? Number(id) : 1],
    ['array', [id]],
    ['object', { id }],
    ['empty string', ''],
    ['boolean', true],
    ['null', null],
  ];
}

/** Loose forms of a query string parameter `name` holding the real id `n` (`url` as sent, raw). */
function looseQueries(name: string, n: string): [string, string][] {
  return [
    ['given twice', `${name}=${n}&${name}=${n}`],
    ['given twice, different', `${name}=${n}&${name}=${Number(n) + 1}`],
    ['list form', `${name}[]=${n}`],
    ['indexed list form', `${name}[0]=${n}`],
    ['object form', `${name}[id]=${n}`],
    ['plain and list form', `${name}=${n}&${name}[]=${n}`],
    ['decimal point', `${name}=${n}.0`],
    ['leading space', `${name}=%20${n}`],
    ['leading plus-space', `${name}=+${n}`],
    ['trailing space', `${name}=${n}%20`],
    ['exponent', `${name}=${n}e0`],
    ['hex', `${name}=0x${Number(n).toString(16)}`],
    ['plus sign', `${name}=%2B${n}`],
    ['leading zero', `${name}=0${n}`],
    ['negative', `${name}=-${n}`],
    ['zero', `${name}=0`],
    ['above 2^53', `${name}=9007199254740993`],
    ['20 digits', `${name}=99999999999999999999`],
    ['word', `${name}=abc`],
    ['empty', `${name}=`],
    ['no value', `${name}`],
    ['JSON list', `${name}=%5B${n}%5D`],
    ['JSON object', `${name}=%7B%22id%22%3A${n}%7D`],
    ['comma list', `${name}=${n},${n}`],
    ['NUL after', `${name}=${n}%00`],
    ['full-width digit', `${name}=%EF%BC%91`],
  ];
}

/** Loose forms of a job id in a query string. */
function looseJobQueries(id: string): [string, string][] {
  return [
    ['given twice', `id=${id}&id=${id}`],
    ['list form', `id[]=${id}`],
    ['indexed list form', `id[0]=${id}`],
    ['leading space', `id=%20${id}`],
    ['trailing space', `id=${id}%20`],
    ['leading zero', `id=0${id}`],
    ['decimal point', `id=${id}.0`],
    ['braces', `id=%7B${id}%7D`],
    ['empty', 'id='],
  ];
}

/** A form post (the specification's multipart variant) with these fields, each value as given. */
function multipart(fields: [string, string][]) {
  const boundary = `sweep${crypto.randomBytes(6).toString('hex')}`;
  const body = fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') + `--${boundary}--\r\n`;
  return { payload: body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** What every answer of the API carries (server/core/security-headers.ts): checked on each one the sweep gets. */
function missingHeaders(headers: Record<string, unknown>): string[] {
  const missing: string[] = [];
  const csp = String(headers['content-security-policy'] ?? '');
  if (headers['referrer-policy'] !== 'no-referrer') missing.push(`Referrer-Policy: ${headers['referrer-policy']}`);
  if (headers['x-content-type-options'] !== 'nosniff') missing.push(`X-Content-Type-Options: ${headers['x-content-type-options']}`);
  if (headers['x-frame-options'] !== 'DENY') missing.push(`X-Frame-Options: ${headers['x-frame-options']}`);
  if (headers['cache-control'] !== 'no-store') missing.push(`Cache-Control: ${headers['cache-control']}`);
  if (!/(^|;)\s*default-src 'none'/.test(csp) || !/(^|;)\s*frame-ancestors 'none'/.test(csp)) missing.push(`Content-Security-Policy: ${csp}`);
  if (!String(headers['content-type'] ?? '').startsWith('application/json')) missing.push(`Content-Type: ${headers['content-type']}`);
  return missing;
}

interface Try {
  call: string;
  field: string;
  what: string;
  method: 'GET' | 'POST';
  url: string;
  token: string;
  payload?: string;
  contentType?: string;
}

/** The id-like fields of each served call, from its description: [field, schema]. */
function idFieldsOf(call: { method: string; path: string }): [string, any][] {
  const operation = document.paths[call.path][call.method.toLowerCase()];
  const fields: Record<string, any> =
    call.method === 'GET'
      ? Object.fromEntries((operation.parameters ?? []).map((p: { name: string; schema: unknown }) => [p.name, p.schema]))
      : (operation.requestBody?.content?.['application/json']?.schema?.properties ?? {});
  return Object.entries(fields).filter(([name, schema]) => isIdField(name, schema));
}

/** List calls of declared resources and the id-like fields their filters take (`id` always; references and *_id fields that filter). */
function filteredIds(): { path: string; method: 'GET' | 'POST'; fields: string[] }[] {
  const out: { path: string; method: 'GET' | 'POST'; fields: string[] }[] = [];
  for (const capability of capabilities) {
    for (const { declaration } of capability.resources ?? []) {
      for (const area of ['admin', 'manage', 'mail'] as const) {
        const config = (declaration as ResourceDeclaration)[area];
        if (!config?.list) continue;
        const path = `/api/${area}/${pathOf(declaration, area)}/list`;
        const call = t.calls.find((c) => c.path === path);
        if (!call) continue;
        const fields = ['id', ...Object.entries(declaration.fields).filter(([name, f]) => f.filter && (f.kind === 'reference' || ID_NAME.test(name))).map(([name]) => name)];
        out.push({ path, method: call.method, fields: [...new Set(fields)] });
      }
    }
  }
  return out;
}

/** Every try of the sweep, grouped by call (rows are compared per call). */
function sweep(): Map<string, Try[]> {
  const byCall = new Map<string, Try[]>();
  const add = (key: string, entry: Try) => byCall.set(key, [...(byCall.get(key) ?? []), entry]);
  for (const call of t.calls) {
    const key = `${call.method} ${call.path}`;
    const token = tokens[call.auth as keyof typeof tokens];
    for (const [field, schema] of idFieldsOf(call)) {
      const kind = kindOf(schema);
      const real = kind === 'string' ? jobId : '1';
      if (call.method === 'GET') {
        for (const [what, query] of kind === 'string' ? looseJobQueries(real) : looseQueries(field, real)) add(key, { call: key, field, what, method: 'GET', url: `${call.path}?${query}`, token });
        continue;
      }
      const forms = kind === 'string' ? looseJobIds(real) : kind === 'numbers' ? looseJsonLists(real) : looseJsonValues(real, nullable(schema));
      for (const [what, value] of forms) {
        add(key, { call: key, field, what, method: 'POST', url: call.path, token, payload: JSON.stringify({ [field]: value }), contentType: 'application/json' });
      }
      // The form-post variant: the field given twice (a list's way in a form, so not for lists), and padded.
      for (const [what, fields] of [
        ...(kind === 'numbers' ? [] : [['form: given twice', [[field, real], [field, real]]]]),
        ['form: leading space', [[field, ` ${real}`]]],
        ['form: decimal point', [[field, `${real}.0`]]],
      ] as [string, [string, string][]][]) {
        add(key, { call: key, field, what, method: 'POST', url: call.path, token, ...multipart(fields) });
      }
    }
  }
  for (const list of filteredIds()) {
    const key = `${list.method} ${list.path}`;
    const call = t.calls.find((c) => c.path === list.path)!;
    const token = tokens[call.auth as keyof typeof tokens];
    for (const field of list.fields) {
      const forms = [...looseJsonValues('1', true).filter(([, v]) => !Array.isArray(v) && v !== '' && v !== null), ...looseJsonLists('1').filter(([what]) => what.startsWith('item: ') && !/empty string|null/.test(what))];
      for (const [what, value] of forms) {
        const filter = JSON.stringify({ [field]: value });
        add(key, {
          call: key,
          field: `filter.${field}`,
          what: `filter ${what}`,
          method: list.method,
          token,
          ...(list.method === 'GET' ? { url: `${list.path}?filter=${encodeURIComponent(filter)}` } : { url: list.path, payload: JSON.stringify({ filter: { [field]: value } }), contentType: 'application/json' }),
        });
      }
    }
  }
  return byCall;
}

/** Whether the answer refused exactly the field tried (or an item of it). */
const names = (errors: Record<string, unknown> | undefined, field: string) => Object.keys(errors ?? {}).some((key) => key === field || key.startsWith(`${field}.`));

describe('loose ids, every call that takes one', () => {
  it('When the calls are read from the app, then each area has calls with ids, and every id-like field is declared as an id', () => {
    const withIds = t.calls.filter((call) => idFieldsOf(call).length > 0);
    const areas = new Set(withIds.map((call) => /^\/api\/(admin|manage|mail)\//.exec(call.path)?.[1] ?? 'public'));
    expect([...areas].sort()).toEqual(['admin', 'mail', 'manage']);
    expect(withIds.length).toBeGreaterThan(90);
    // An id-like name whose schema is not an id (or a job's id) is itself a loose id: a number the call would take in any form.
    const undeclared = withIds.flatMap((call) =>
      idFieldsOf(call)
        .filter(([, schema]) => !(isIdSchema(idOf(schema)) || isIdSchema(idOf(schema)?.items) || (call.path.startsWith('/api/manage/job/') && idOf(schema)?.type === 'string')))
        .map(([field, schema]) => `${call.method} ${call.path} ${field}: ${JSON.stringify(schema)}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('When each call gets the loose forms of a real id (the second customer\'s), then it refuses the field with 40000, answers 4xx with the security headers, and no row changes', async () => {
    const started = Date.now();
    const failures: string[] = [];
    let sent = 0;
    const byCall = sweep();
    let before = await snapshot();
    let snapshotMs = 0;
    for (const [call, tries] of byCall) {
      for (const entry of tries) {
        const response = await t.app.inject({
          method: entry.method,
          url: entry.url,
          headers: { authentication: entry.token, 'accept-language': 'en', ...(entry.contentType ? { 'content-type': entry.contentType } : {}) },
          ...(entry.payload !== undefined ? { payload: entry.payload } : {}),
        });
        sent++;
        let body: { code?: number; data?: unknown; errors?: Record<string, unknown> } = {};
        try {
          body = response.json();
        } catch {
          /* not JSON: reported below */
        }
        const refused = body.code === 40000 && body.data === null && names(body.errors, entry.field) && response.statusCode >= 400 && response.statusCode < 500;
        if (!refused) failures.push(`${call} ${entry.field} [${entry.what}] → HTTP ${response.statusCode} ${response.body.slice(0, 160)}`);
        const missing = missingHeaders(response.headers);
        if (missing.length) failures.push(`${call} [${entry.what}] headers: ${missing.join('; ')}`);
      }
      const snapshotStarted = Date.now();
      const after = await snapshot();
      snapshotMs += Date.now() - snapshotStarted;
      if (after !== before) failures.push(`${call}: rows changed`);
      before = after;
    }
    const calls = byCall.size;
    console.log(`id sweep (${t.dialect}): ${calls} calls, ${sent} requests, ${((Date.now() - started) / 1000).toFixed(1)} s (${(snapshotMs / 1000).toFixed(1)} s of it comparing rows)`);
    expect(sent).toBeGreaterThan(2500);
    expect(failures).toEqual([]);
  }, 300_000);

  it('When the same GET calls get the real id as written, then it is not refused as malformed (the callers and ids of the sweep are right)', async () => {
    const failures: string[] = [];
    for (const call of t.calls.filter((c) => c.method === 'GET')) {
      for (const [field, schema] of idFieldsOf(call)) {
        const real = kindOf(schema) === 'string' ? jobId : '1';
        const response = await t.app.inject({ method: 'GET', url: `${call.path}?${field}=${encodeURIComponent(real)}`, headers: { authentication: tokens[call.auth as keyof typeof tokens] } });
        // A file (an attachment, a profile) when found; otherwise the envelope.
        const json = String(response.headers['content-type'] ?? '').startsWith('application/json');
        const code = json ? response.json().code : response.statusCode === 200 ? 0 : -1;
        // Found (0), or not this caller's (the second customer's record: 40400/40300): never a validation or session error.
        if (![0, 40300, 40400].includes(code)) failures.push(`${call.path}?${field}=${real} → ${code} ${response.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
