/**
 * The import's rules that are pure functions, at their boundaries: a CSV file's rows as read
 * (csv-rows.ts: limits, flags, units, every row error with its line and column), the refusal of a
 * file with errors, old password hashes as stored (hashes.ts), a PostfixAdmin connection string and
 * its table prefix (postfixadmin-source.ts), the command line's arguments (cli.ts), and who a mail
 * copy logs in as and which networks an operator may allow (mail-copy/); then a PostfixAdmin
 * installation with every case the plan treats apart, dry-run and imported (postfixadmin-plan.ts).
 */
import crypto from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageText } from '../../resources/messages.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { operatorLogin, signUpCustomer, teamMemberOf, type CustomerSession } from '../helpers/fixtures.js';
import { GiB, mailFixtures } from '../helpers/mail-fixtures.js';
import { freshPostfixAdmin, postfixAdminHashes, type SourceKind } from '../helpers/postfixadmin.js';
import { parseCliArguments, runPostfixAdminImportFromCli } from '../../server/imports/cli.js';
import { csvRefusal, MAX_CSV_ROWS, parseQuota, readCsv } from '../../server/imports/csv-rows.js';
import { clearText, isWeak, normaliseHash } from '../../server/imports/hashes.js';
import { describeSource, parseSource, sourceKind, tablePrefix } from '../../server/imports/postfixadmin-source.js';
import { parseAllowedNetworks, reachable } from '../../server/imports/mail-copy/source-address.js';
import { userOf } from '../../server/imports/mail-copy/start-copy.js';

const MiB = 1024 ** 2;
const HEADER = 'type,address,name,password,password_hash,quota,active,destinations';
const csv = (...rows: string[]) => [HEADER, ...rows].join('\n');
/** "line:column:message" of each error, as the screens list them. */
const errorsOf = (text: string) => readCsv(text).errors.map((e) => `${e.line}:${e.column}:${e.message}`);
const rowsOf = (text: string) => readCsv(text).rows;

describe('a quota as written in a CSV file (parseQuota)', () => {
  it('When a quota is bytes or has a unit (any case, with or without a space), then it is that many bytes; anything else is no quota', () => {
    const cases: [string, number | undefined][] = [
      ['1073741824', 1073741824],
      ['1024', 1024],
      ['7b', 7],
      ['1k', 1024],
      ['1KB', 1024],
      ['1 KiB', 1024],
      ['500M', 500 * MiB],
      ['500 mb', 500 * MiB],
      ['3MiB', 3 * MiB],
      ['2g', 2 * 1024 ** 3],
      ['2 GB', 2 * 1024 ** 3],
      ['2 GiB', 2 * 1024 ** 3],
      ['1T', 1024 ** 4],
      ['1tb', 1024 ** 4],
      ['1 TiB', 1024 ** 4],
      [' 12M ', 12 * MiB],
      // Fractions round to whole bytes.
      ['1.5M', 1.5 * MiB],
      ['0.5K', 512],
      ['1.5', 2],
      ['10.25k', 10496],
      ['5X', undefined],
      ['5 PB', undefined],
      ['x5M', undefined],
      ['5M 3', undefined],
      ['5M5', undefined],
      ['M', undefined],
      ['-5M', undefined],
      ['.5M', undefined],
      ['', undefined],
    ];
    for (const [text, bytes] of cases) expect(parseQuota(text), text).toBe(bytes);
  });
});

describe('a CSV file read row by row (readCsv)', () => {
  it('When the file is not CSV, has no rows, unknown or missing columns, then one error on the line concerned says so, and no row is read', () => {
    expect(readCsv('type,address\nmailbox,a@b.example\nalias,"unclosed\n')).toEqual({ rows: [], errors: [{ line: 3, column: '', message: 'validation.csv_malformed', params: { reason: 'CSV_QUOTE_NOT_CLOSED' } }] });
    expect(readCsv('type,address\nmailbox,a@b.example,extra\n').errors).toEqual([{ line: 2, column: '', message: 'validation.csv_malformed', params: { reason: 'CSV_RECORD_INCONSISTENT_COLUMNS' } }]);
    expect(readCsv(HEADER)).toEqual({ rows: [], errors: [{ line: 1, column: '', message: 'validation.csv_empty' }] });
    // Blank lines are no rows.
    expect(readCsv(`${HEADER}\n\n\n`).errors).toEqual([{ line: 1, column: '', message: 'validation.csv_empty' }]);
    expect(readCsv('type,address,colour,size\nmailbox,a@b.example,red,1').errors).toEqual([
      { line: 1, column: '', message: 'validation.csv_unknown_column', params: { column: 'colour' } },
      { line: 1, column: '', message: 'validation.csv_unknown_column', params: { column: 'size' } },
    ]);
    expect(readCsv('name\nAnna').errors).toEqual([
      { line: 1, column: 'type', message: 'validation.csv_missing_column', params: { column: 'type' } },
      { line: 1, column: 'address', message: 'validation.csv_missing_column', params: { column: 'address' } },
    ]);
    expect(readCsv('type,name\nmailbox,Anna').errors).toEqual([{ line: 1, column: 'address', message: 'validation.csv_missing_column', params: { column: 'address' } }]);
    // Headings are read whatever their case and spaces, and a file may carry only the columns it needs.
    expect(readCsv(' Type , ADDRESS , Password \nmailbox,anna@b.example,anna-password-1')).toEqual({
      rows: [{ line: 2, type: 'mailbox', address: 'anna@b.example', domain: 'b.example', name: '', password: 'anna-password-1', quota: undefined, active: true }],
      errors: [],
    });
    // A byte-order mark before the heading, and spaces around values, are no part of them.
    expect(readCsv(`\uFEFF${HEADER}\n mailbox , anna@b.example ,, good-password-1 ,, 2M , no ,`)).toEqual({
      rows: [{ line: 2, type: 'mailbox', address: 'anna@b.example', domain: 'b.example', name: '', password: 'good-password-1', quota: 2 * MiB, active: false }],
      errors: [],
    });
    expect(messageText('en', 'validation.csv_unknown_column', { column: 'colour' })).toBe('Unknown column "colour"');
    expect(messageText('zh', 'validation.csv_missing_column', { column: 'type' })).toBe('缺少列“type”');
    expect(messageText('en', 'validation.csv_malformed', { reason: 'CSV_QUOTE_NOT_CLOSED' })).toBe('This line is not valid CSV (CSV_QUOTE_NOT_CLOSED)');
    expect(messageText('zh', 'validation.csv_empty')).toBe('文件表头下没有任何行');
  });

  it(`When a file has ${MAX_CSV_ROWS} rows, then each is read; one more and the file is refused as too long`, () => {
    const many = (n: number) => [HEADER, ...Array.from({ length: n }, () => 'robot,x,,,,,,')].join('\n');
    const atLimit = readCsv(many(MAX_CSV_ROWS));
    expect(atLimit.errors).toHaveLength(MAX_CSV_ROWS);
    expect(atLimit.errors[0]).toEqual({ line: 2, column: 'type', message: 'validation.csv_type' });
    expect(readCsv(many(MAX_CSV_ROWS + 1))).toEqual({ rows: [], errors: [{ line: 1, column: '', message: 'validation.csv_too_many_rows', params: { max: 50_000, smart_count: 50_000 } }] });
    expect(messageText('en', 'validation.csv_too_many_rows', { smart_count: 50_000 })).toBe('At most 50000 rows per file');
    expect(messageText('zh', 'validation.csv_too_many_rows', { smart_count: 50_000 })).toBe('每个文件最多 50000 行');
  });

  it('When the active column says yes or no in any of its spellings, then the row is active or not; a blank is active; anything else is an error on that line', () => {
    const spellings: [string, boolean][] = [['1', true], ['true', true], ['YES', true], ['y', true], ['', true], ['0', false], ['False', false], ['no', false], ['N', false]];
    const rows = rowsOf(csv(...spellings.map(([flag], i) => `alias,f${i}@b.example,,,,,${flag},x@c.example`)));
    expect(rows.map((r) => (r.type === 'alias' ? r.active : null))).toEqual(spellings.map(([, active]) => active));
    expect(readCsv(csv('alias,a@b.example,,,,,2,x@c.example', 'alias,b@b.example,,,,,on,x@c.example')).errors).toEqual([
      { line: 2, column: 'active', message: 'validation.csv_flag' },
      { line: 3, column: 'active', message: 'validation.csv_flag' },
    ]);
    expect(messageText('zh', 'validation.csv_flag')).toBe('请填写 1 或 0（是或否）');
  });

  it('When a mailbox address is at its limits (a local part of 64, an address of 254 characters), then it is read; one more character is an error', () => {
    const local = (n: number) => 'l'.repeat(n);
    // A domain of 189 characters: with a local part of 64, an address of 254.
    const domain = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(53)}.example`;
    expect(domain.length).toBe(189);
    const text = csv(
      `mailbox,${local(64)}@b.example,,good-password-1,,,,`,
      `mailbox,${local(65)}@b.example,,good-password-1,,,,`,
      `mailbox,${local(64)}@${domain},,good-password-1,,,,`,
      `mailbox,${local(64)}@d${domain},,good-password-1,,,,`,
      `mailbox,@b.example,,good-password-1,,,,`,
      `mailbox,Anna@B.Example,,good-password-1,,,,`,
      `mailbox,bob@bücher.example,,good-password-1,,,,`,
    );
    expect(errorsOf(text)).toEqual(['3:address:validation.csv_address', '5:address:validation.csv_address', '6:address:validation.csv_address']);
    expect(rowsOf(text).map((r) => (r.type === 'mailbox' ? r.address : ''))).toEqual([`${local(64)}@b.example`, `${local(64)}@${domain}`, 'anna@b.example', 'bob@xn--bcher-kva.example']);
    expect(rowsOf(text).map((r) => (r.type === 'mailbox' ? r.domain : ''))).toEqual(['b.example', domain, 'b.example', 'xn--bcher-kva.example']);
  });

  it('When a row\'s address is not one, then that is its only error (nothing else of the row is checked)', () => {
    expect(readCsv(csv('mailbox,not-an-address,,,,nonsense,,', 'alias,nor this,,,,,,', 'alias,@,,,,,,x@c.example', 'alias,bad local@b.example,,,,,,x@c.example', 'domain,not a domain,,,,,,')).errors).toEqual([
      { line: 2, column: 'address', message: 'validation.csv_address' },
      { line: 3, column: 'address', message: 'validation.csv_address' },
      { line: 4, column: 'address', message: 'validation.csv_address' },
      { line: 5, column: 'address', message: 'validation.csv_address' },
      { line: 6, column: 'address', message: 'validation.invalid_domain' },
    ]);
    expect(messageText('en', 'validation.csv_address')).toContain('@example.org for a catch-all alias');
  });

  it('When an address is on two lines (a mailbox, an alias, a domain), then the second names the first; different addresses are no duplicates', () => {
    const text = csv(
      'domain,b.example,,,,,,',
      'domain,c.example,,,,,,',
      'domain,B.example,,,,,,',
      'mailbox,anna@b.example,,good-password-1,,,,',
      'alias,ANNA@b.example,,,,,,x@c.example',
      'mailbox,ben@b.example,,good-password-1,,,,',
      'alias,@b.example,,,,,,x@c.example',
      'alias,@c.example,,,,,,x@c.example',
      'alias,@B.EXAMPLE,,,,,,x@c.example',
      // A line that repeats an address is told so, and nothing else of it is checked.
      'mailbox,ben@b.example,,,,lots,maybe,',
      'alias,@c.example,,,,,,',
    );
    expect(readCsv(text).errors).toEqual([
      { line: 4, column: 'address', message: 'validation.csv_duplicate', params: { line: 2 } },
      { line: 6, column: 'address', message: 'validation.csv_duplicate', params: { line: 5 } },
      { line: 10, column: 'address', message: 'validation.csv_duplicate', params: { line: 8 } },
      { line: 11, column: 'active', message: 'validation.csv_flag' },
      { line: 11, column: 'address', message: 'validation.csv_duplicate', params: { line: 7 } },
      { line: 12, column: 'address', message: 'validation.csv_duplicate', params: { line: 9 } },
    ]);
    expect(rowsOf(text).map((r) => `${r.line}:${r.type === 'domain' ? r.name : r.address}`)).toEqual(['2:b.example', '3:c.example', '5:anna@b.example', '7:ben@b.example', '8:@b.example', '9:@c.example']);
    expect(messageText('en', 'validation.csv_duplicate', { line: 2 })).toBe('The same address is already on line 2');
    expect(messageText('zh', 'validation.csv_duplicate', { line: 2 })).toBe('同一地址已出现在第 2 行');
  });

  it('When a mailbox has a password, a hash, both or neither, then it takes the one given and refuses the others', () => {
    const sha = '{SHA512-CRYPT}$6$salt$hash';
    const text = csv(
      `mailbox,pass@b.example,,good-password-1,,,,`,
      `mailbox,hash@b.example,,,${sha},,,`,
      `mailbox,bare@b.example,,,$1$salt$hash,,,`,
      `mailbox,both@b.example,,good-password-1,${sha},,,`,
      `mailbox,none@b.example,,,,,,`,
      `mailbox,plain@b.example,,,{plain}secret-password,,,`,
      `mailbox,clear@b.example,,,{CLEAR}secret-password,,,`,
      `mailbox,clear64@b.example,,,{PLAIN.BASE64}c2VjcmV0,,,`,
      `mailbox,inside@b.example,,,x{PLAIN}secret-password,,,`,
      `mailbox,unknown@b.example,,,{NOPE}secret,,,`,
    );
    expect(errorsOf(text)).toEqual([
      '5:password:validation.csv_password_or_hash',
      '6:password:validation.csv_password_or_hash',
      '7:password_hash:validation.csv_hash_clear_text',
      '8:password_hash:validation.csv_hash_clear_text',
      '9:password_hash:validation.csv_hash_clear_text',
      '10:password_hash:validation.csv_hash_scheme',
      '11:password_hash:validation.csv_hash_scheme',
    ]);
    const [pass, hash, bare] = rowsOf(text) as Extract<ReturnType<typeof rowsOf>[number], { type: 'mailbox' }>[];
    expect(pass).toMatchObject({ password: 'good-password-1' });
    expect(pass).not.toHaveProperty('password_hash');
    expect(hash).toMatchObject({ password_hash: sha });
    expect(hash).not.toHaveProperty('password');
    expect(bare.password_hash).toBe('{MD5-CRYPT}$1$salt$hash');
    expect(messageText('en', 'validation.csv_password_or_hash')).toBe('Give either a password or a password hash');
    expect(messageText('zh', 'validation.csv_hash_clear_text')).toContain('明文密码不是哈希');
    expect(messageText('en', 'validation.csv_password_length', { min: 8, max: 128, smart_count: 128 })).toBe('A password has 8 to 128 characters');
    expect(messageText('zh', 'validation.csv_password_length', { min: 8, max: 128, smart_count: 128 })).toBe('密码长度为 8 到 128 个字符');
  });

  it('When a quota is 1 MiB or 1 TiB, then it is read; a byte less or more, or no size at all, is an error naming the range; a blank quota is none', () => {
    const text = csv(
      `mailbox,min@b.example,,good-password-1,,1M,,`,
      `mailbox,below@b.example,,good-password-1,,${MiB - 1},,`,
      `mailbox,max@b.example,,good-password-1,,1T,,`,
      `mailbox,above@b.example,,good-password-1,,${1024 ** 4 + 1},,`,
      `mailbox,words@b.example,,good-password-1,,lots,,`,
      `mailbox,blank@b.example,,good-password-1,,,,`,
    );
    expect(readCsv(text).errors).toEqual([
      { line: 3, column: 'quota', message: 'validation.csv_quota', params: { min: '1 MiB', max: '1 TiB' } },
      { line: 5, column: 'quota', message: 'validation.csv_quota', params: { min: '1 MiB', max: '1 TiB' } },
      { line: 6, column: 'quota', message: 'validation.csv_quota', params: { min: '1 MiB', max: '1 TiB' } },
    ]);
    expect(rowsOf(text).map((r) => (r.type === 'mailbox' ? r.quota : null))).toEqual([MiB, 1024 ** 4, undefined]);
    expect(messageText('en', 'validation.csv_quota', { min: '1 MiB', max: '1 TiB' })).toBe('A quota from 1 MiB to 1 TiB: bytes, or with a unit (500M, 2G)');
    expect(messageText('zh', 'validation.csv_quota', { min: '1 MiB', max: '1 TiB' })).toBe('配额须在 1 MiB 到 1 TiB 之间：字节数，或带单位（500M、2G）');
  });

  it('When a name has 128 characters it is read, 129 are an error; an apostrophe the export put before a formula is taken off, and no other', () => {
    const text = csv(
      `mailbox,n128@b.example,${'n'.repeat(128)},good-password-1,,,,`,
      `mailbox,n129@b.example,${'n'.repeat(129)},good-password-1,,,,`,
      `mailbox,eq@b.example,'=SUM(A1),good-password-1,,,,`,
      `mailbox,plus@b.example,'+1,good-password-1,,,,`,
      `mailbox,minus@b.example,'-1,good-password-1,,,,`,
      `mailbox,at@b.example,'@home,good-password-1,,,,`,
      `mailbox,tab@b.example,"'\tx",good-password-1,,,,`,
      `mailbox,word@b.example,'quoted,good-password-1,,,,`,
      `mailbox,inner@b.example,O'=Brien,good-password-1,,,,`,
    );
    expect(readCsv(text).errors).toEqual([{ line: 3, column: 'name', message: 'validation.too_long', params: { max: 128, smart_count: 128 } }]);
    expect(rowsOf(text).map((r) => (r.type === 'mailbox' ? r.name : ''))).toEqual(['n'.repeat(128), '=SUM(A1)', '+1', '-1', '@home', '\tx', "'quoted", "O'=Brien"]);
    expect(messageText('en', 'validation.too_long', { smart_count: 128 })).toBe('At most 128 characters');
  });

  it('When an alias lists destinations, then they are split on spaces, commas and semicolons, lowercased, kept once and written in punycode; none, 101 or a bad one is an error', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `d${i}@c.example`);
    const text = csv(
      `alias,list@b.example,,,,,,"A@c.example;b@c.example, c@c.example  a@c.example;;u@bücher.example"`,
      `alias,@b.example,,,,,,x@c.example`,
      `alias,empty@b.example,,,,,,`,
      `alias,hundred@b.example,,,,,,${hundred.join(' ')}`,
      `alias,more@b.example,,,,,,${[...hundred, 'd100@c.example'].join(' ')}`,
      `alias,bad@b.example,,,,,,ok@c.example not-an-address`,
    );
    expect(readCsv(text).errors).toEqual([
      { line: 4, column: 'destinations', message: 'validation.required' },
      { line: 6, column: 'destinations', message: 'validation.too_many', params: { max: 100, smart_count: 100 } },
      { line: 7, column: 'destinations', message: 'validation.invalid_destination', params: { address: 'not-an-address' } },
    ]);
    const rows = rowsOf(csv(`alias,list@b.example,,,,,,"A@c.example;b@c.example, c@c.example  a@c.example;;u@bücher.example"`, `alias,@b.example,,,,,,x@c.example`, `alias,hundred@b.example,,,,,,${hundred.join(' ')}`));
    expect(rows).toEqual([
      { line: 2, type: 'alias', address: 'list@b.example', domain: 'b.example', goto: 'a@c.example,b@c.example,c@c.example,u@xn--bcher-kva.example', active: true },
      { line: 3, type: 'alias', address: '@b.example', domain: 'b.example', goto: 'x@c.example', active: true },
      { line: 4, type: 'alias', address: 'hundred@b.example', domain: 'b.example', goto: hundred.join(','), active: true },
    ]);
    expect(messageText('en', 'validation.invalid_destination', { address: 'x' })).toBe('Not a valid destination address: x');
    expect(messageText('zh', 'validation.too_many', { smart_count: 100 })).toBe('最多 100 项');
  });

  it('When a row\'s type is none of domain, mailbox or alias, then the type column is named; domain rows name a domain to follow', () => {
    expect(readCsv(csv('robot,r@b.example,,,,,,', 'MAILBOX,m@b.example,,good-password-1,,,,', 'Domain,B.Example.,,,,,,'))).toEqual({
      rows: [
        { line: 3, type: 'mailbox', address: 'm@b.example', domain: 'b.example', name: '', password: 'good-password-1', quota: undefined, active: true },
        { line: 4, type: 'domain', name: 'b.example' },
      ],
      errors: [{ line: 2, column: 'type', message: 'validation.csv_type' }],
    });
    expect(messageText('en', 'validation.csv_type')).toBe('The type is mailbox or alias');
  });
});

describe('a file refused whole (csvRefusal)', () => {
  it('When a file has errors, then the refusal counts them all and keys the first 200 by "line:column" with their messages', () => {
    const errors = Array.from({ length: 201 }, (_, i) => ({ line: i + 2, column: 'address' as const, message: 'validation.csv_address' }));
    errors[0] = { ...errors[0], params: { line: 1 } } as never;
    const refusal = csvRefusal(errors);
    expect(refusal).toMatchObject({ kind: 'validation', message: 'error.csv_invalid', params: { count: 201, smart_count: 201 } });
    const fields = refusal.errors!;
    expect(Object.keys(fields)).toHaveLength(200);
    expect(fields['2:address']).toEqual({ message: 'validation.csv_address', params: { line: 1 } });
    expect(fields['3:address']).toEqual({ message: 'validation.csv_address' });
    expect(fields['201:address']).toBeDefined();
    expect(fields['202:address']).toBeUndefined();
    expect(messageText('en', 'error.csv_invalid', { smart_count: 1 })).toBe('The file has 1 problem; nothing was imported. Correct the line named and try again.');
    expect(messageText('en', 'error.csv_invalid', { smart_count: 201 })).toBe('The file has 201 problems; nothing was imported. Correct the lines named and try again.');
    expect(messageText('zh', 'error.csv_invalid', { smart_count: 201 })).toBe('文件中有 201 处问题，未导入任何内容。请更正所列的行后重试。');
  });
});

describe('an old password hash as stored (normaliseHash, isWeak)', () => {
  it('When a hash has a scheme Dovecot verifies, in any case, then it is kept with its {SCHEME}; a crypt string in base64 is stored decoded; anything else is not carried', () => {
    const sha512 = '$6$salt$hash';
    const cases: [string, string | undefined][] = [
      ['{SHA512-CRYPT}$6$salt$hash', '{SHA512-CRYPT}$6$salt$hash'],
      ['  {sha512-crypt}$6$salt$hash  ', '{SHA512-CRYPT}$6$salt$hash'],
      [`{SHA512-CRYPT.B64}${Buffer.from(sha512).toString('base64')}`, '{SHA512-CRYPT}$6$salt$hash'],
      [`{BLF-CRYPT.BASE64}${Buffer.from('$2y$05$abc').toString('base64')}`, '{BLF-CRYPT}$2y$05$abc'],
      [`{SHA512-CRYPT.B64}${Buffer.from('not crypt').toString('base64')}`, undefined],
      ['{SSHA512.B64}c2FsdA==', '{SSHA512.B64}c2FsdA=='],
      ['{SHA256.HEX}abcdef', '{SHA256.HEX}abcdef'],
      ['{PLAIN-MD5}abc', '{PLAIN-MD5}abc'],
      ['{LDAP-MD5}abc', '{LDAP-MD5}abc'],
      ['{SHA}', undefined],
      ['{NOPE}abc', undefined],
      ['{PLAIN}secret', undefined],
      ['ABCDEF0123456789abcdef0123456789', '{PLAIN-MD5}abcdef0123456789abcdef0123456789'],
      ['abcdef0123456789abcdef012345678', undefined],
      ['abcdef0123456789abcdef0123456789a', undefined],
      ['$1$salt$hash', '{MD5-CRYPT}$1$salt$hash'],
      ['', undefined],
      ['   ', undefined],
      ['not-a-hash', undefined],
    ];
    for (const [stored, kept] of cases) expect(normaliseHash(stored), stored).toBe(kept);
    const verified = ['ARGON2ID', 'ARGON2I', 'CRYPT', 'SHA512-CRYPT', 'SHA256-CRYPT', 'MD5-CRYPT', 'BLF-CRYPT', 'SSHA512', 'SSHA256', 'SSHA', 'SMD5', 'SHA512', 'SHA256', 'SHA', 'SHA1', 'PLAIN-MD5', 'LDAP-MD5'];
    for (const scheme of verified) expect(normaliseHash(`{${scheme.toLowerCase()}}x`), scheme).toBe(`{${scheme}}x`);
    for (const scheme of ['PLAIN', 'CLEARTEXT', 'MD4', 'NTLM', 'SHA384', 'SHA512-CRYPTX']) expect(normaliseHash(`{${scheme}}x`), scheme).toBeUndefined();
  });

  it('When a hash is Dovecot\'s clear text in any spelling, then it is known as such; only argon2id is not weak', () => {
    for (const text of ['{PLAIN}x', '{plain}x', '{CLEAR}x', '{CLEARTEXT}x', '{PLAIN.B64}eA==', '{CLEARTEXT.BASE64}eA==']) expect(clearText.test(text), text).toBe(true);
    for (const text of ['{PLAIN-MD5}x', 'x{PLAIN}y', '{PLAINX}y', '{PLAIN.}y']) expect(clearText.test(text), text).toBe(false);
    expect(isWeak('{MD5-CRYPT}$1$salt$hash')).toBe(true);
    expect(isWeak('{ARGON2ID}$argon2id$v=19$m=65536,t=3,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA')).toBe(false);
  });
});

describe('a PostfixAdmin connection string (postfixadmin-source.ts)', () => {
  it('When it is mysql://, mariadb:// or postgres(ql):// in any case, then its kind is known; anything else is refused naming the schemes', () => {
    expect(['mysql://h/d', 'MariaDB://h/d', 'postgres://h/d', 'POSTGRESQL://h/d'].map(sourceKind)).toEqual(['mysql', 'mysql', 'postgres', 'postgres']);
    for (const url of ['sqlite://h/d', 'x mysql://h/d', 'mysql:/h/d', 'postgre://h/d', 'mysqlx://h/d']) expect(sourceKind(url), url).toBeUndefined();
    expect(() => parseSource('sqlite:///etc/passwd')).toThrow(expect.objectContaining({ message: 'error.import_source_unreadable', params: { reason: 'mysql://, mariadb:// or postgres://' } }));
  });

  it('When it names user, password, host, port and database, then those are what the driver gets, with the default port of its kind', () => {
    expect(parseSource('mysql://pfa%40x:p%40ss@db.example:3307/postfix%5Fadmin?table_prefix=pfa_&sslmode=require')).toEqual({ kind: 'mysql', host: 'db.example', port: 3307, user: 'pfa@x', password: 'p@ss', database: 'postfix_admin', sslmode: 'require', prefix: 'pfa_' });
    expect(parseSource('mariadb://u@10.0.0.1/pfa')).toMatchObject({ kind: 'mysql', port: 3306, password: '', sslmode: 'disable', prefix: undefined });
    expect(parseSource('postgres://u:p@[::1]/pfa')).toMatchObject({ kind: 'postgres', host: '::1', port: 5432 });
    expect(parseSource('postgresql://u:p@a-b.example.org/pfa?sslmode=verify-full&table_prefix=')).toMatchObject({ host: 'a-b.example.org', sslmode: 'verify-full', prefix: '' });
    expect(parseSource(`mysql://u@h/pfa?table_prefix=${'p'.repeat(64)}`).prefix).toBe('p'.repeat(64));
  });

  it('When the host, the database or an option is not as an import needs it, then the refusal names it in our words', () => {
    const refusal = (url: string) => {
      try {
        parseSource(url);
      } catch (error) {
        const e = error as { message: string; params: Record<string, unknown>; errors: Record<string, unknown> };
        expect(e.errors, url).toEqual({ source: { message: e.message, params: e.params } });
        return { message: e.message, params: e.params };
      }
      return undefined;
    };
    expect(refusal('mysql://u@-bad-/pfa')).toEqual({ message: 'error.import_source_invalid', params: {} });
    expect(refusal('mysql://u@host/')).toEqual({ message: 'error.import_source_invalid', params: {} });
    expect(refusal('mysql://u@host/a%2Fb')).toEqual({ message: 'error.import_source_invalid', params: {} });
    expect(refusal('mysql://u@host/pfa#frag')).toEqual({ message: 'error.import_source_option', params: { option: '#' } });
    expect(refusal(`mysql://u@host/pfa?${'o'.repeat(50)}=1`)).toEqual({ message: 'error.import_source_option', params: { option: 'o'.repeat(40) } });
    expect(refusal('mysql://u@host/pfa?table_prefix=a&table_prefix=b')).toEqual({ message: 'error.import_source_option', params: { option: 'table_prefix' } });
    expect(refusal(`mysql://u@host/pfa?sslmode=${'x'.repeat(30)}`)).toEqual({ message: 'error.import_source_option', params: { option: `sslmode=${'x'.repeat(20)}` } });
    expect(refusal('mysql://u@host/pfa?table_prefix=bad-prefix')).toEqual({ message: 'error.import_source_prefix_missing', params: { prefix: 'bad-prefix' } });
    expect(refusal(`mysql://u@host/pfa?table_prefix=${'p'.repeat(65)}`)).toEqual({ message: 'error.import_source_prefix_missing', params: { prefix: 'p'.repeat(65) } });
    expect(refusal('mysql://u@host/pfa')).toBeUndefined();
    expect(messageText('en', 'error.import_source_invalid')).toContain('mysql://user:password@host:port/database');
    expect(messageText('zh', 'error.import_source_prefix_missing', { prefix: 'x_' })).toBe('此数据库中没有前缀为“x_”的 PostfixAdmin 表。');
  });

  it('When the operator is shown the source, then its password is not in it; a string that is no URL shows as nothing', () => {
    expect(describeSource('mysql://pfa:secret-pass@db.example:3306/postfix')).toBe('mysql://pfa@db.example:3306/postfix');
    expect(describeSource('not a url')).toBe('');
  });

  it('When the database holds PostfixAdmin tables, then their prefix is the one asked for, or the only one; none or several are said in words', () => {
    const tables = (prefix: string) => ['domain', 'mailbox', 'alias', 'alias_domain', 'vacation'].map((n) => `${prefix}${n}`);
    expect(tablePrefix([...tables(''), 'other'], undefined)).toBe('');
    expect(tablePrefix(tables('pfa_'), undefined)).toBe('pfa_');
    // An installation missing one table is none.
    expect(tablePrefix([...tables('pfa_'), ...tables('old_').filter((n) => n !== 'old_vacation')], undefined)).toBe('pfa_');
    expect(tablePrefix([...tables('pfa_'), ...tables('old_')], 'old_')).toBe('old_');
    const thrown = (names: string[], asked?: string) => {
      try {
        tablePrefix(names, asked);
      } catch (error) {
        return { message: (error as Error).message, params: (error as { params: unknown }).params };
      }
      return undefined;
    };
    expect(thrown(['users', 'alias_domain'])).toEqual({ message: 'error.import_source_no_tables', params: {} });
    expect(thrown([...tables('pfa_'), ...tables('')])).toEqual({ message: 'error.import_source_prefixes', params: { prefixes: '"", pfa_' } });
    expect(thrown([...tables('z_'), ...tables('a_')])).toEqual({ message: 'error.import_source_prefixes', params: { prefixes: 'a_, z_' } });
    expect(thrown(tables('pfa_'), 'nope_')).toEqual({ message: 'error.import_source_prefix_missing', params: { prefix: 'nope_' } });
    // A prefix that is not a word is no installation of ours.
    expect(thrown(tables('bad-'))).toEqual({ message: 'error.import_source_no_tables', params: {} });
  });
});

describe('the import command line (parseCliArguments)', () => {
  it('When the operator writes --source and --map in either form, then each is read; the domain is lowercased and the customer kept as written', () => {
    expect(parseCliArguments(['import', 'postfixadmin', '--source', 'mysql://h/d', '--map', 'Example.ORG=Anna@Example.com', '--map=b.example=12', '--dry-run'])).toEqual({
      source: 'mysql://h/d',
      dryRun: true,
      maps: [
        { domain: 'example.org', customer: 'Anna@Example.com' },
        { domain: 'b.example', customer: '12' },
      ],
    });
    expect(parseCliArguments(['--source=mysql://h/d'])).toEqual({ source: 'mysql://h/d', dryRun: false, maps: [] });
    expect(parseCliArguments(['postfixadmin', '--source', 'postgres://h/d'])).toMatchObject({ source: 'postgres://h/d' });
  });

  it('When an argument is missing, unknown or a --map has no domain, then the error says which, with the usage', () => {
    const usage = /\nusage: maildesk import postfixadmin --source /;
    expect(() => parseCliArguments(['import', 'postfixadmin'])).toThrow(/^--source is required\nusage/);
    expect(() => parseCliArguments(['--source'])).toThrow(/^--source is required/);
    expect(() => parseCliArguments(['--source', 'mysql://h/d', '--verbose'])).toThrow(/^unknown argument "--verbose"\nusage/);
    expect(() => parseCliArguments(['--source', 'mysql://h/d', '--map', '=12'])).toThrow(/^--map takes domain=customer, not "=12"/);
    expect(() => parseCliArguments(['--source', 'mysql://h/d', '--map', 'example.org'])).toThrow(/^--map takes domain=customer, not "example.org"/);
    expect(() => parseCliArguments(['--source', 'mysql://h/d', '--map'])).toThrow(/^--map takes domain=customer, not ""/);
    expect(() => parseCliArguments(['--verbose'])).toThrow(usage);
    // The shortest map: a one-letter domain.
    expect(parseCliArguments(['--source', 's', '--map', 'a=1']).maps).toEqual([{ domain: 'a', customer: '1' }]);
  });
});

describe('a mail copy\'s login and networks (mail-copy/)', () => {
  it('When a user pattern names the address, its local part or its domain, then each is put in; other text stays', () => {
    expect(userOf('%e*admin', 'anna.b@example.org')).toBe('anna.b@example.org*admin');
    expect(userOf('%u', 'anna.b@example.org')).toBe('anna.b');
    expect(userOf('%d/%u/%x', 'a@b@example.org')).toBe('example.org/a@b/%x');
  });

  it('When the operator allows networks, then addresses and ranges of either family are taken, and anything else stops the start naming the entry', () => {
    expect(parseAllowedNetworks(undefined)).toEqual([]);
    expect(parseAllowedNetworks(' 10.1.2.0/24 , ,192.0.2.7, fd00::/8,::1/128,10.0.0.0/0,10.0.0.0/32 ')).toEqual(['10.1.2.0/24', '192.0.2.7', 'fd00::/8', '::1/128', '10.0.0.0/0', '10.0.0.0/32']);
    for (const entry of ['10.0.0.0/33', 'fd00::/129', 'example.org', '10.0.0.0/8/1', '10.0.0.0/', '10.0.0.0/1234', '10.0.0.0/x']) {
      expect(() => parseAllowedNetworks(entry), entry).toThrow(`MAIL_COPY_ALLOW_NETWORKS: "${entry}" is not an address or a range such as 10.1.2.0/24 or fd00::/8`);
    }
    // A single address allowed is that one address; an IPv6 range is of IPv6.
    expect(reachable('192.168.1.7', ['192.168.1.7'])).toBe(true);
    expect(reachable('192.168.1.8', ['192.168.1.7'])).toBe(false);
    expect(reachable('fd00::5', ['fd00::/8'])).toBe(true);
    expect(reachable('fe80::5', ['fd00::/8'])).toBe(false);
    expect(reachable('not an address', [])).toBe(false);
  });
});

describe.each(['mariadb', 'postgres'] as SourceKind[])('a PostfixAdmin installation on %s, planned and imported (postfixadmin-plan.ts)', (kind) => {
  let t: TestApp;
  let root: string;
  let source: Awaited<ReturnType<typeof freshPostfixAdmin>>;
  let a: CustomerSession;
  let b: CustomerSession;
  let member: { id: number };
  const sfx = crypto.randomBytes(3).toString('hex');
  const d = { taken: `tk${sfx}.example`, pa: `pa${sfx}.example`, pb: `pb${sfx}.example`, pc: `pc${sfx}.example`, bad: `bad_${sfx}.example`, backup: `bk${sfx}.example`, al1: `al1${sfx}.example`, al2: `al2${sfx}.example`, al3: `al3${sfx}.example`, al4: `al4${sfx}.example` };
  const at = (local: string) => `${local}@${d.pa}`;
  const md5 = postfixAdminHashes()[0];
  const hundred = Array.from({ length: 100 }, (_, i) => `t${i}@x.example`);
  const eleven = Array.from({ length: 11 }, (_, i) => `f${i}@x.example`);

  beforeAll(async () => {
    t = await startTestApp();
    root = await operatorLogin(t);
    const mail = mailFixtures(t);
    [a, b] = [await signUpCustomer(t), await signUpCustomer(t)];
    await mail.grant(a.id, 20 * GiB);
    await mail.grant(b.id, MiB);
    member = await teamMemberOf(t, a);
    // B's domain here already: mapped to A, it is a conflict.
    await mail.activeDomain(b, d.taken);
    source = await freshPostfixAdmin(kind);
    const m = (username: string, extra: { quota?: number; name?: string; active?: number; password?: string } = {}) => ({ username, password: md5.stored, quota: 10 * MiB, ...extra });
    await source.fill({
      domains: [{ domain: 'ALL' }, { domain: d.pa, mailboxes: 3, aliases: 0, maxquota: 2_000_000, active: 0 }, { domain: d.pb, aliases: 5, mailboxes: -1, maxquota: -1 }, { domain: d.pc }, { domain: d.bad }, { domain: d.backup, backupmx: 1 }, { domain: d.al1 }, { domain: d.al2 }, { domain: d.taken }],
      mailboxes: [
        m(at('tiny'), { quota: 1 }),
        m(at('huge'), { quota: 2 * 1024 ** 4 }),
        m(at('long'), { name: 'n'.repeat(200) }),
        m(at('off'), { active: 0 }),
        m(at('ghost'), { password: 'not-a-hash' }),
        m(at('fw')),
        m(at('fwten')),
        ...['vac1', 'vac2', 'vac3', 'vac4', 'vac5', 'vac6'].map((local) => m(at(local))),
        m(`c1@${d.pc}`, { quota: 2 * MiB }),
        m(`x@${d.bad}`),
        m(`someone@${d.taken}`),
      ],
      aliases: [
        { address: at('fw'), goto: [at('fw'), ...eleven].join(',') },
        { address: at('fwten'), goto: eleven.slice(0, 10).join(',') },
        { address: at('autoreply'), goto: `autoreply#${d.pa}@autoreply.${d.pa}` },
        { address: at('badgoto'), goto: 'not-an-address' },
        { address: at('hundred'), goto: hundred.join(',') },
        { address: at('hundredone'), goto: [...hundred, 't100@x.example'].join(',') },
        { address: `@${d.pa}`, goto: at('tiny'), active: 0 },
        { address: at('mixed'), goto: ' A@x.example,  b@x.example, a@x.example' },
        { address: `list@${d.pb}`, goto: at('tiny') },
      ],
      aliasDomains: [
        { alias_domain: d.al1, target_domain: d.pa },
        { alias_domain: d.al2, target_domain: d.pc },
        { alias_domain: d.al3, target_domain: d.pa },
        { alias_domain: d.al4, target_domain: `none${sfx}.example` },
      ],
    });
    // What the helper does not write: transports, rows that are not addresses, vacations with their windows.
    const name = new URL(source.url).pathname.slice(1);
    const rows: [string, unknown[]][] = [
      ['UPDATE domain SET transport = ? WHERE domain = ?', ['smtp:[relay.example]', d.pa]],
      ['UPDATE domain SET transport = ? WHERE domain = ?', ['lmtp:unix:private/dovecot-lmtp', d.pb]],
      ['INSERT INTO mailbox (username, password, name, maildir, quota, local_part, domain) VALUES (?, ?, ?, ?, ?, ?, ?)', ['no-at-sign', md5.stored, '', 'x/', 0, 'no-at-sign', d.pa]],
      ['INSERT INTO alias (address, goto, domain) VALUES (?, ?, ?)', [`bad alias@${d.pa}`, 'x@x.example', d.pa]],
      ['INSERT INTO alias (address, goto, domain) VALUES (?, ?, ?)', ['@nodot', 'x@x.example', d.pa]],
    ];
    const vacation = (local: string, subject: string, body: string, interval: number, from: string, until: string) =>
      ['INSERT INTO vacation (email, subject, body, cache, domain, interval_time, active, activefrom, activeuntil) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [at(local), subject, body, '', d.pa, interval, kind === 'postgres' ? true : 1, from, until]] as [string, unknown[]];
    rows.push(
      vacation('vac1', '', 'Away.', 1, '2000-01-01 00:00:00', '2038-01-18 00:00:00'),
      vacation('vac2', 'Away', '   ', 86_400, '2000-01-01 00:00:00', '2038-01-18 00:00:00'),
      vacation('vac3', 's'.repeat(255), `${'b'.repeat(9_999)}.!`, 0, '2026-03-01 08:00:00', '2026-04-01 18:00:00'),
      vacation('vac4', 'Away', 'Back soon.', 86_401, '2000-01-01 00:00:00', '2037-12-31 00:00:00'),
      vacation('vac5', 'Away', 'Back soon.', 40 * 86_400, '2026-05-01 00:00:00', '2026-04-01 00:00:00'),
      vacation('vac6', 'Away', 'Back soon.', 86_400, '2026-05-01 00:00:00', '2026-05-01 00:00:00'),
      vacation('ghost', 'Away', 'Never here.', 86_400, '2000-01-01 00:00:00', '2038-01-18 00:00:00'),
    );
    if (kind === 'mariadb') {
      const connection = await mysql.createConnection({ uri: `mysql://root@127.0.0.1:3306/${name}` });
      try {
        for (const [text, values] of rows) await connection.query(text, values);
      } finally {
        await connection.end();
      }
    } else {
      const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:5432/${name}` });
      await client.connect();
      try {
        for (const [text, values] of rows) {
          let i = 0;
          await client.query(text.replace(/\?/g, () => `$${++i}`), values);
        }
      } finally {
        await client.end();
      }
    }
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  const mapping = () => [
    ...[d.pa, d.pb, d.bad, d.backup, d.al1, d.al2, d.taken].map((domain) => ({ domain, customer_id: a.id })),
    { domain: d.pc, customer_id: b.id },
  ];

  it('When the operator looks at it, then every domain but PostfixAdmin\'s "ALL" is listed with what it holds, and the totals count every row', async () => {
    const reply = await t.post('/api/manage/imports/postfixadmin/inspect', { source: source.url }, { token: root });
    expect(reply.data.domains.map((x: { name: string }) => x.name)).toEqual([d.al1, d.al2, d.backup, d.bad, d.pa, d.pb, d.pc, d.taken].sort());
    expect(reply.data.domains.find((x: { name: string }) => x.name === d.pa)).toEqual({ name: d.pa, description: `${d.pa} domain`, active: false, backup_mx: false, mailboxes: 14, aliases: 21 });
    expect(reply.data.domains.find((x: { name: string }) => x.name === d.pb)).toMatchObject({ active: true, mailboxes: 0, aliases: 1 });
    expect(reply.data.totals).toEqual({ domains: 9, mailboxes: 17, aliases: 25, alias_domains: 4, vacations: 7 });
  });

  it('When a domain is mapped to a team member, then the mapping is refused naming the account', async () => {
    const reply = await t.post('/api/manage/imports/postfixadmin/dry_run', { source: source.url, mapping: [{ domain: d.pa, customer_id: member.id }] }, { token: root });
    expect(reply).toMatchObject({ status: 400, code: 40000, errors: { mapping: { message: 'validation.not_a_customer', params: { id: member.id } } } });
    expect(messageText('zh', 'validation.not_a_customer')).toBe('不是客户账户');
  });

  it('When dry-run, then what is left behind is named with its reason, the counts are of what would be made, each domain says what becomes of it, and a customer short of storage is named', async () => {
    const reply = await t.post('/api/manage/imports/postfixadmin/dry_run', { source: source.url, mapping: mapping() }, { token: root });
    expect(reply.code, JSON.stringify(reply)).toBe(0);
    const report = reply.data.report;
    expect(report.not_carried).toEqual([
      // In the source's order (by name).
      { kind: 'domain', name: d.bad, reason: 'invalid_name' },
      { kind: 'domain', name: d.backup, reason: 'backup_mx' },
      { kind: 'domain', name: d.pa, reason: 'transport' },
      { kind: 'alias_domain', name: d.al2, reason: 'other_customer' },
      { kind: 'alias_domain', name: d.al3, reason: 'other_customer' },
      { kind: 'mailbox', name: at('ghost'), reason: 'unknown_hash' },
      { kind: 'mailbox', name: 'no-at-sign', reason: 'invalid_address' },
      { kind: 'alias', name: '@nodot', reason: 'invalid_address' },
      { kind: 'alias', name: `bad alias@${d.pa}`, reason: 'invalid_address' },
      { kind: 'alias', name: at('badgoto'), reason: 'invalid_destination' },
      { kind: 'forwarding', name: at('fw'), reason: 'too_many_targets' },
      { kind: 'alias', name: at('hundredone'), reason: 'too_many_targets' },
    ]);
    // Domains pa, pb, al1, al2 (pc is B's), one alias domain, 12 mailboxes, 4 aliases, forwarding of fwten and vacations of vac1-5.
    expect(report.create).toEqual({ domain: 5, alias_domain: 1, mailbox: 13, alias: 4, rules: 7 });
    expect(report.conflicts).toEqual([
      { kind: 'domain', name: d.taken, reason: 'domain_of_other_customer' },
      { kind: 'mailbox', name: `someone@${d.taken}`, reason: 'domain_skipped' },
    ]);
    // B has 1 MiB for c1's 2 MiB; A has 20 GiB for huge's 1 TiB (clamped from 2 TiB), tiny's 1 MiB (raised from 1 byte) and ten of 10 MiB.
    expect(report.capacity).toEqual([
      { customer_id: b.id, customer_email: b.email, customer_name: b.email.split('@')[0], shortfall: MiB },
      { customer_id: a.id, customer_email: a.email, customer_name: a.email.split('@')[0], shortfall: 1024 ** 4 + MiB + 10 * 10 * MiB - 20 * GiB },
    ]);
    expect(report.schemes).toEqual({ 'MD5-CRYPT': 13 });
    const line = (name: string) => report.domains.find((x: { name: string }) => x.name === name);
    expect(line(d.pa)).toEqual({ name: d.pa, customer_id: a.id, action: 'create', mailboxes: 12, aliases: 3 });
    expect(line(d.pb)).toEqual({ name: d.pb, customer_id: a.id, action: 'create', mailboxes: 0, aliases: 1 });
    expect(line(d.backup)).toMatchObject({ action: 'skipped' });
    expect(line(d.bad)).toMatchObject({ action: 'skipped' });
    expect(line(d.taken)).toMatchObject({ customer_id: a.id, action: 'conflict', mailboxes: 1 });
    expect(line(d.al3)).toBeUndefined();
    // Nothing chosen: every domain is left, and nothing is read of the customers.
    const none = await t.post('/api/manage/imports/postfixadmin/dry_run', { source: source.url, mapping: [] }, { token: root });
    expect(none.data.report).toMatchObject({ create: { domain: 0, alias_domain: 0, mailbox: 0, alias: 0, rules: 0 }, capacity: [] });
    expect(none.data.report.not_carried.filter((x: { reason: string }) => x.reason === 'not_chosen')).toHaveLength(8);
  });

  it('When imported, then limits, quotas, names, inactive records, forwarding and out-of-office windows are as the plan says', async () => {
    const started = await t.post('/api/manage/imports/postfixadmin/start', { source: source.url, mapping: mapping() }, { token: root });
    expect(started.code, JSON.stringify(started)).toBe(0);
    await t.services.jobs.drain();
    expect((await t.get('/api/manage/imports/get', { id: started.data.id }, { token: root })).data).toMatchObject({ state: 'done', created: { domain: 5, alias_domain: 1, mailbox: 13, alias: 4, rules: 7 } });
    const domains = (await t.post('/api/manage/domain/list', { page_size: 100 }, { token: root })).data.list as { name: string; status: string; max_mailboxes: number; max_aliases: number; max_quota: number }[];
    expect(domains.find((x) => x.name === d.pa)).toMatchObject({ status: 'suspended', max_mailboxes: 3, max_aliases: 0, max_quota: 1024 ** 4 });
    expect(domains.find((x) => x.name === d.pb)).toMatchObject({ status: 'active', max_mailboxes: 0, max_aliases: 5, max_quota: 0 });
    const boxes = await t.services.db.selectFrom('mailbox').select(['address', 'quota', 'name', 'active']).where('address', 'like', `%@${d.pa}`).execute();
    const boxOf = (local: string) => boxes.find((x) => x.address === at(local));
    expect(boxOf('tiny')).toMatchObject({ quota: MiB });
    expect(boxOf('huge')).toMatchObject({ quota: 1024 ** 4 });
    expect(boxOf('long')?.name).toBe('n'.repeat(128));
    expect(boxOf('off')).toMatchObject({ active: 0 });
    expect(boxOf('fw')).toMatchObject({ active: 1 });
    const aliases = await t.services.db.selectFrom('alias').select(['address', 'goto', 'active']).where('domain_id', 'in', t.services.db.selectFrom('domain').select('id').where('name', '=', d.pa)).execute();
    expect(aliases.map((x) => x.address).sort()).toEqual([`@${d.pa}`, at('hundred'), at('mixed')].sort());
    expect(aliases.find((x) => x.address === `@${d.pa}`)).toMatchObject({ active: 0, goto: at('tiny') });
    expect(aliases.find((x) => x.address === at('mixed'))).toMatchObject({ active: 1, goto: 'a@x.example,b@x.example' });
    expect(aliases.find((x) => x.address === at('hundred'))?.goto).toBe(hundred.join(','));
    const aliasDomains = await t.get('/api/manage/alias_domain/list', { page_size: '100' }, { token: root });
    expect(aliasDomains.data.list.map((x: { alias_domain_name?: string; active: number }) => x.active)).toEqual([1]);

    const rules = async (local: string) => {
      const { id } = await t.services.db.selectFrom('mailbox').select('id').where('address', '=', at(local)).executeTakeFirstOrThrow();
      return (await t.get('/api/manage/email/rules', { id: Number(id) }, { token: root })).data;
    };
    expect(await rules('fwten')).toMatchObject({ forwarding: { enabled: true, addresses: eleven.slice(0, 10), keep_copy: false }, out_of_office: { enabled: false } });
    expect(await rules('fw')).toMatchObject({ forwarding: { enabled: false } });
    expect((await rules('vac1')).out_of_office).toMatchObject({ enabled: false, subject: '', interval_days: 1, starts_at: null, ends_at: null, time_zone: 'UTC' });
    expect((await rules('vac2')).out_of_office).toMatchObject({ enabled: false, subject: 'Away', interval_days: 1 });
    expect((await rules('vac3')).out_of_office).toMatchObject({ enabled: true, subject: 's'.repeat(255), body: `${'b'.repeat(9_999)}.`, interval_days: 7, starts_at: '2026-03-01T08:00:00.000Z', ends_at: '2026-04-01T18:00:00.000Z' });
    expect((await rules('vac4')).out_of_office).toMatchObject({ enabled: true, interval_days: 2, starts_at: null, ends_at: '2037-12-31T00:00:00.000Z' });
    expect((await rules('vac5')).out_of_office).toMatchObject({ enabled: true, interval_days: 30, starts_at: '2026-05-01T00:00:00.000Z', ends_at: null });
    expect((await rules('vac6')).out_of_office).toMatchObject({ enabled: true, interval_days: 1, starts_at: '2026-05-01T00:00:00.000Z', ends_at: null });
  });

  it('When the command line is used, then wrong arguments exit 2 before anything starts, a failure says why in the terminal\'s language and exits 1, a dry run prints the report, and an import its progress and its end', async () => {
    const lines: string[] = [];
    let starts = 0;
    let closes = 0;
    const cli = (args: string[], locale?: 'en' | 'zh') => {
      lines.length = 0;
      return runPostfixAdminImportFromCli(args, {
        startMaildesk: async () => (starts++, { services: t.services, close: async () => void closes++ }),
        print: (line) => lines.push(line),
        ...(locale ? { locale } : {}),
      });
    };
    expect(await cli(['import', 'postfixadmin', '--map', `${d.pb}=${a.id}`])).toBe(2);
    expect(lines).toEqual([expect.stringMatching(/^--source is required\nusage: maildesk import postfixadmin /)]);
    expect(starts).toBe(0);
    expect(await cli(['--source', source.url, '--map', `${d.pb}=nobody@example.com`])).toBe(1);
    expect(lines).toEqual([`import failed: no customer "nobody@example.com" (for ${d.pb})`]);
    // A team member is no customer, by id or by address.
    expect(await cli(['--source', source.url, '--map', `${d.pb}=${member.id}`])).toBe(1);
    expect(lines).toEqual([`import failed: no customer "${member.id}" (for ${d.pb})`]);
    expect(await cli(['--source', 'mysql://pfa@127.0.0.1:1/pfa', '--map', `${d.pb}=${a.id}`], 'zh')).toBe(1);
    expect(lines).toEqual([`导入失败：${messageText('zh', 'error.import_source_unreachable')}`]);
    expect(await cli(['--source', 'mysql://pfa@127.0.0.1:1/pfa', '--map', `${d.pb}=${a.id}`])).toBe(1);
    expect(lines).toEqual(['import failed: The PostfixAdmin database server could not be reached: check its host, port and sslmode.']);
    // By the customer's address in any case: the dry run prints what would be made (all of it is here now).
    expect(await cli(['--source', source.url, '--map', `${d.pb.toUpperCase()}=${a.email.toUpperCase()}`, '--dry-run'])).toBe(0);
    expect(JSON.parse(lines.join('\n')).report).toMatchObject({ create: { domain: 0, alias: 0 }, conflicts: [{ kind: 'alias', name: `list@${d.pb}`, reason: 'already_here' }] });
    expect(await cli(['--source', source.url, '--map', `${d.pb}=${a.id}`])).toBe(0);
    expect(lines[0]).toMatch(/^import \d+: 2 items from (mysql|postgres):\/\/\w+@127\.0\.0\.1:\d+\/\w+$/);
    expect(lines[0]).not.toContain('pfa-read-only');
    expect(lines[1]).toBe('2/2');
    expect(JSON.parse(lines.slice(2).join('\n'))).toMatchObject({ state: 'done', created: { domain: 0, alias_domain: 0, mailbox: 0, alias: 0, rules: 0 }, conflicts: 1 });
    // Every start was closed again.
    expect([starts, closes]).toEqual([6, 6]);
  });
});
