/** A mailbox's rules as the Sieve script Pigeonhole runs (server/mail/rules.ts, pure). */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { forwardTargets, noRules, scriptIdOf, sieveScript, sieveString, type MailboxRules } from '../../server/mail/rules.js';

const own = ['anna@example.org', 'sales@example.org', 'anna@example.net'];
const rules = (change: { out_of_office?: Partial<MailboxRules['out_of_office']>; forwarding?: Partial<MailboxRules['forwarding']> }): MailboxRules => ({
  out_of_office: { ...noRules.out_of_office, ...change.out_of_office },
  forwarding: { ...noRules.forwarding, ...change.forwarding },
});
const lf = (script: string | null) => script?.replace(/\r\n/g, '\n');

describe('the Sieve script of a mailbox', () => {
  it('When no rule is on, then there is no script (plain delivery)', () => {
    expect(sieveScript(noRules, own)).toBeNull();
    expect(sieveScript(rules({ forwarding: { enabled: true, addresses: [] } }), own)).toBeNull();
    expect(sieveScript(rules({ forwarding: { enabled: false, addresses: ['x@example.com'] } }), own)).toBeNull();
  });

  it('When out-of-office is on with dates, then one reply per sender per interval, only between the dates, to the owner\'s addresses, never to lists or automatic mail', () => {
    const script = lf(
      sieveScript(rules({ out_of_office: { enabled: true, starts_at: '2026-12-01T08:00:00.000Z', ends_at: '2026-12-24T17:30:00+08:00', subject: 'Away "till" Jan', body: 'Back soon.\nAnna \\ Sales', interval_days: 3 } }), [...own, 'ANNA@example.org']),
    );
    expect(script).toBe(
      [
        'require ["vacation", "date", "relational"];',
        "# Made by Maildesk from the mailbox's rules; changed only through Maildesk.",
        '# Out of office: one reply per sender per interval, never to lists, bulk or automatic mail.',
        'if allof (currentdate :zone "+0000" :value "ge" "iso8601" "2026-12-01T08:00:00Z",',
        '          currentdate :zone "+0000" :value "le" "iso8601" "2026-12-24T09:30:00Z",',
        '          not exists "List-Id",',
        '          not header :is "Precedence" ["list", "bulk", "junk"],',
        '          not header :matches "Auto-Submitted" "auto-*") {',
        '  vacation :days 3 :subject "Away \\"till\\" Jan" :addresses ["anna@example.org", "sales@example.org", "anna@example.net"] "Back soon.\nAnna \\\\ Sales";',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('When out-of-office has no dates, then it needs no date test', () => {
    const script = sieveScript(rules({ out_of_office: { enabled: true, subject: 'Away', body: 'Away' } }), own)!;
    expect(script.split('\r\n')[0]).toBe('require ["vacation"];');
    expect(script).not.toContain('currentdate');
    expect(script).toContain('vacation :days 7 ');
  });

  it('When forwarding keeps a copy, then each address gets a copy and the mail is kept; without, it is only redirected', () => {
    expect(lf(sieveScript(rules({ forwarding: { enabled: true, addresses: ['a@example.com', 'b@example.com'], keep_copy: true } }), own))).toBe(
      ['require ["copy"];', "# Made by Maildesk from the mailbox's rules; changed only through Maildesk.", '# Forwarding, with a copy kept here.', 'redirect :copy "a@example.com";', 'redirect :copy "b@example.com";', 'keep;', ''].join('\n'),
    );
    const moved = lf(sieveScript(rules({ forwarding: { enabled: true, addresses: ['a@example.com'], keep_copy: false } }), own))!;
    expect(moved).toContain('redirect "a@example.com";');
    expect(moved).not.toContain('keep;');
    expect(moved).not.toContain('require');
  });

  it('When both are on, then the reply comes before the forwarding, in one script', () => {
    const script = sieveScript(rules({ out_of_office: { enabled: true, subject: 'S', body: 'B' }, forwarding: { enabled: true, addresses: ['a@example.com'] } }), own)!;
    expect(script.indexOf('vacation')).toBeLessThan(script.indexOf('redirect'));
    expect(script.split('\r\n')[0]).toBe('require ["vacation", "copy"];');
  });

  it('When the script changes, then its id does; the same script keeps its id', () => {
    const a = sieveScript(rules({ forwarding: { enabled: true, addresses: ['a@example.com'] } }), own)!;
    const b = sieveScript(rules({ forwarding: { enabled: true, addresses: ['b@example.com'] } }), own)!;
    expect(scriptIdOf(7, a)).toMatch(/^7-[0-9a-f]{16}$/);
    expect(scriptIdOf(7, a)).toBe(scriptIdOf(7, a));
    expect(scriptIdOf(7, a)).not.toBe(scriptIdOf(7, b));
  });

  it('When a string holds quotes, backslashes and line breaks, then Sieve reads it back as written', () => {
    expect(sieveString('a "b" \\ c\nd')).toBe('"a \\"b\\" \\\\ c\r\nd"');
  });
});

describe('forwarding targets', () => {
  it('When addresses repeat or differ in case, then each is kept once, in lower case', () => {
    expect(forwardTargets(['X@Example.com', 'x@example.com', 'y@example.com'], own)).toEqual({ targets: ['x@example.com', 'y@example.com'] });
  });
  it("When a target is one of the mailbox's own addresses, then it is refused (mail would go round)", () => {
    expect(forwardTargets(['x@example.com', 'Sales@example.org'], own)).toEqual({ problem: 'own_address', address: 'sales@example.org' });
  });
  it('When there are more than ten, then they are refused', () => {
    expect(forwardTargets(Array.from({ length: 11 }, (_, i) => `t${i}@example.com`), own)).toEqual({ problem: 'too_many' });
  });
});

// Pigeonhole's own compiler, where Dovecot's Sieve package is installed (the mail suite runs the scripts for real).
describe.runIf(fs.existsSync('/usr/bin/sievec'))("Pigeonhole's compiler", () => {
  it('When every kind of script is compiled by sievec, then it compiles', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-sieve-'));
    try {
      const scripts = [
        rules({ out_of_office: { enabled: true, starts_at: '2026-12-01T08:00:00Z', ends_at: '2026-12-24T09:30:00Z', subject: 'Away "x" 休假', body: 'Back soon.\nAnna \\ Sales', interval_days: 30 }, forwarding: { enabled: true, addresses: ['a@example.com', 'b@example.com'], keep_copy: true } }),
        rules({ out_of_office: { enabled: true, subject: 'S', body: 'B' } }),
        rules({ out_of_office: { enabled: true, ends_at: '2026-12-24T09:30:00Z', subject: 'S', body: 'B' } }),
        rules({ forwarding: { enabled: true, addresses: ['a@example.com'], keep_copy: false } }),
      ].map((r) => sieveScript(r, own)!);
      for (const [i, script] of scripts.entries()) {
        const file = path.join(dir, `${i}.sieve`);
        fs.writeFileSync(file, script);
        expect(() => execFileSync('/usr/bin/sievec', [file, path.join(dir, `${i}.svbin`)], { stdio: 'pipe' }), script).not.toThrow();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
