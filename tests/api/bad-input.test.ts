/**
 * Generated from what the app serves (the app's calls and /api/openapi.json): every call gets
 * a battery of malformed input — broken JSON and multipart, bodies that are not objects,
 * prototype keys, control and invisible characters, wrong types for each declared field,
 * oversized and deeply nested values — as the caller it is meant for. Each must answer a
 * 4xxxx envelope (never a 500, never success) and change no row of any table. A call added
 * later is covered without touching this file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, signUpCustomer } from '../helpers/fixtures.js';
import { mailboxOwner } from '../helpers/mail-fixtures.js';

let t: TestApp;
const tokens = { public: '', customer: '', operator: '', mailbox: '' };
let document: { paths: Record<string, Record<string, any>> };
beforeAll(async () => {
  t = await startTestApp({ BODY_LIMIT_BYTES: String(256 * 1024) });
  tokens.customer = (await signUpCustomer(t)).token;
  tokens.operator = await operatorLogin(t);
  tokens.mailbox = (await mailboxOwner(t)).token;
  document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
}, 60_000);
afterAll(() => t.close());

type Sent = { payload?: string | Buffer; contentType?: string };

/** Every row of every table, except the idle clock a session refreshes (at most once a minute) when it is used. */
async function snapshot(): Promise<string> {
  // Ours only: on PostgreSQL the job queue (pg-boss) keeps its tables in a schema of its own.
  const tables = (await t.services.db.introspection.getTables())
    .filter((table) => !table.schema || table.schema === 'public')
    .map((table) => table.name)
    .filter((name) => !name.startsWith('kysely_'))
    .sort();
  const rows: Record<string, unknown[]> = {};
  for (const table of tables) {
    const all = await (t.services.db as any).selectFrom(table).selectAll().execute();
    // Sorted: PostgreSQL returns rows in no fixed order, and a touched session row moves.
    rows[table] = all.map((row: Record<string, unknown>) => JSON.stringify(table === 'session' ? { ...row, last_seen_at: undefined } : row)).sort();
  }
  return JSON.stringify(rows);
}

const nested = (depth: number): unknown => (depth === 0 ? 'x' : [nested(depth - 1)]);
const unsafeStrings = ['nul\u0000', 'rlo\u202Egnp', 'zw\u200Bsp', 'lone\uD800', 'bom\uFEFF', 'del\u007F', 'iso\u2067'];
const hugeString = 'x'.repeat(300 * 1024);

/** Values no field of any call accepts, whatever its type: every field gets these, the first field all the refused characters. */
const neverValid: unknown[] = ['nul\u0000', 'rlo\u202Egnp', 'lone\uD800', nested(60), JSON.parse('{"__proto__": {"polluted": 1}}'), { k: 'zw\u200Bsp' }];
const neverValidFirst: unknown[] = [...unsafeStrings, { constructor: { prototype: { polluted: 1 } } }, [unsafeStrings[0]]];

/** Values of the wrong type for a field, from its declared JSON schema (unions and free-form fields get none). */
function wrongFor(property: any): unknown[] {
  if (!property || property.anyOf || property.oneOf) return [];
  const types = [property.type].flat();
  if (types.includes('integer') || types.includes('number')) return [true, [7], '7e0', '0x7', ' 7 ', '7.0', 1.5, 1e308, -1e308, 'abc', {}];
  if (types.includes('string') && property.enum) return ['not-a-choice', 7, true, [property.enum[0]]];
  if (types.includes('string') && property.format === 'date-time') return ['yesterday', 7, true];
  if (types.includes('string')) return [7, true, [], {}, ...(property.maxLength ? ['y'.repeat(property.maxLength + 1)] : [])];
  if (types.includes('array')) return ['x', 7, true, Array.from({ length: 5000 }, (_, i) => i + 1)];
  if (types.includes('boolean')) return ['maybe', 2, []];
  return [];
}

function multipart(parts: [string, string][], boundary = 'B0UND') {
  const body = parts.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') + `--${boundary}--\r\n`;
  return { payload: body, contentType: `multipart/form-data; boundary=${boundary}` };
}

const json = (value: unknown): Sent => ({ payload: JSON.stringify(value), contentType: 'application/json' });

/** Malformed bodies of a POST call with these declared fields. */
function postBattery(properties: Record<string, any>, required: string[]): [string, Sent][] {
  const some = Object.fromEntries(required.map((name) => [name, '1']));
  const battery: [string, Sent][] = [
    ['broken JSON', { payload: '{"a":', contentType: 'application/json' }],
    ['JSON with a trailing comma', { payload: '{"a": 1,}', contentType: 'application/json' }],
    ['JSON array', json([])],
    ['JSON string', json('text')],
    ['JSON number', json(7)],
    ['JSON null', { payload: 'null', contentType: 'application/json' }],
    ['not UTF-8', { payload: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), contentType: 'application/json' }],
    ['XML', { payload: '<a/>', contentType: 'application/xml' }],
    ['multipart without boundary', { payload: 'abc', contentType: 'multipart/form-data' }],
    ['multipart cut off', { payload: '--B0UND\r\nContent-Disposition: form-data; name="a"\r\n\r\nabc', contentType: 'multipart/form-data; boundary=B0UND' }],
    ['multipart __proto__ part', multipart([['__proto__', '1'], ...Object.entries(some)])],
    ['multipart constructor part', multipart([['constructor', '1'], ...Object.entries(some)])],
    ['multipart with 1001 parts', multipart(Array.from({ length: 1001 }, (_, i) => [`p${i}`, 'x'] as [string, string]))],
    ['multipart field over the limit', multipart([['a', hugeString]])],
    ['JSON over the limit', json({ ...some, a: hugeString })],
    ['__proto__ key', { payload: `{"__proto__": {"polluted": 1}, ${Object.keys(some).map((k) => `"${k}": "1"`).concat('"z": 0').join(', ')}}`, contentType: 'application/json' }],
    ['constructor.prototype key', json({ ...some, constructor: { prototype: { polluted: 1 } } })],
    ['control character in a key', json({ ...some, 'a\u0000': 1 })],
    ['nested 60 deep', json({ ...some, a: nested(60) })],
  ];
  for (const [index, [name, property]] of Object.entries(properties).entries()) {
    for (const value of [...(index === 0 ? [...neverValid, ...neverValidFirst] : neverValid), ...wrongFor(property)]) {
      battery.push([`${name} = ${JSON.stringify(value)?.slice(0, 40)}`, json({ ...some, [name]: value })]);
    }
  }
  return battery;
}

// Percent-encoded as a client could send them: NUL, RLO, zero-width space, a lone surrogate's UTF-8 bytes, a bare %.
const rawQueryValues = ['%00', 'a%E2%80%AEb', 'a%E2%80%8Bb', '%ED%A0%80', '%FF', '%', '%zz'];

/** Malformed query strings of a GET call with these declared parameters (`url` is the query string as sent). */
function getBattery(parameters: { name: string; schema: any }[]): [string, Sent & { url?: string; oneValue?: string }][] {
  const battery: [string, Sent & { url?: string; oneValue?: string }][] = [
    ['__proto__ parameter', { url: '__proto__=x&constructor=y' }],
    ['__proto__[polluted] parameter', { url: '__proto__%5Bpolluted%5D=1' }],
  ];
  for (const { name, schema } of parameters) {
    const strings = [...unsafeStrings.filter((v) => !/[\uD800-\uDFFF]/.test(v)).slice(0, 3), ...wrongFor(schema).filter((v): v is string => typeof v === 'string'), 'x'.repeat(20_000)];
    for (const value of strings) battery.push([`${name} = ${JSON.stringify(value).slice(0, 40)}`, { url: `${name}=${encodeURIComponent(value)}` }]);
    for (const value of rawQueryValues) battery.push([`${name} = ${value}`, { url: `${name}=${value}` }]);
    // Given more than once, or in a list or object form: refused with the parameter named, never read as one of its values.
    for (const url of [`${name}=1&${name}=2`, `${name}=1&${name}=1`, `${name}[]=1`, `${name}[0]=1`, `${name}[]=1&${name}[]=1`, `${name}[a]=1`, `${name}=1&${name}[]=1`]) {
      battery.push([`${name} as ${url}`, { url, oneValue: name }]);
    }
  }
  return battery;
}

describe('every served call refuses malformed input with a 4xxxx envelope and changes nothing', () => {
  it('When the app serves calls, then each has a description to derive its battery from', () => {
    expect(t.calls.length).toBeGreaterThan(100);
    for (const call of t.calls) expect(document.paths[call.path]?.[call.method.toLowerCase()], `${call.method} ${call.path}`).toBeDefined();
  });

  it('When each call gets its battery as the caller it is meant for, then every answer is a 4xxxx envelope and no row changes', async () => {
    const failures: string[] = [];
    let sent = 0;
    const oneValueChecked = new Set<string>();
    for (const call of t.calls) {
      const operation = document.paths[call.path][call.method.toLowerCase()];
      const token = tokens[call.auth as keyof typeof tokens];
      const battery =
        call.method === 'GET'
          ? getBattery(operation.parameters ?? [])
          : postBattery(operation.requestBody.content['application/json'].schema.properties ?? {}, operation.requestBody.content['application/json'].schema.required ?? []);
      const before = await snapshot();
      for (const [what, input] of battery) {
        const response = await t.app.inject({
          method: call.method,
          url: 'url' in input && input.url ? `${call.path}?${input.url}` : call.path,
          headers: { authentication: token, 'accept-language': 'en', ...(input.contentType ? { 'content-type': input.contentType } : {}) },
          ...(input.payload !== undefined ? { payload: input.payload } : {}),
        });
        sent++;
        const oneValue = 'oneValue' in input ? (input.oneValue as string | undefined) : undefined;
        if (oneValue) oneValueChecked.add(call.path);
        let body: { code?: number; data?: unknown; message?: unknown; errors?: Record<string, { message: string }> } = {};
        try {
          body = response.json();
        } catch {
          /* not JSON: reported below */
        }
        const ok = typeof body.code === 'number' && body.code >= 40000 && body.code < 50000 && body.data === null && typeof body.message === 'string' && response.statusCode >= 400 && response.statusCode < 500;
        const named = !oneValue || body.errors?.[oneValue]?.message === 'validation.one_value';
        if (!ok || !named) failures.push(`${call.method} ${call.path} [${what}] → ${response.statusCode} ${response.body.slice(0, 160)}`);
      }
      const after = await snapshot();
      if (after !== before) failures.push(`${call.method} ${call.path}: rows changed`);
    }
    expect(sent).toBeGreaterThan(2500);
    // Every GET call that has parameters (me/info of the mailbox owners' area has none), each of them given twice and in list and object forms.
    expect(oneValueChecked.size).toBe(t.calls.filter((call) => call.method === 'GET' && (document.paths[call.path].get.parameters ?? []).length > 0).length);
    expect(failures).toEqual([]);
  }, 600_000);
});
