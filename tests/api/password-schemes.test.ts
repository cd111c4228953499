/**
 * Imported mailboxes bring the hashes Dovecot made: every line of tests/fixtures/dovecot-hashes.tsv
 * was made by `doveadm pw`, and the panel accepts its password and refuses any other.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { md5Crypt, schemeOf, shaCrypt, verifySchemeHash } from '../../server/mail/password-schemes.js';

const lines = fs
  .readFileSync(new URL('../fixtures/dovecot-hashes.tsv', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => line.split('\t') as [string, string, string]);

describe('hashes made by doveadm pw', () => {
  it('When the fixture is read, then it holds every scheme imports bring', () => {
    expect(new Set(lines.map(([scheme]) => scheme))).toEqual(new Set(['ARGON2ID', 'ARGON2I', 'SHA512-CRYPT', 'SHA256-CRYPT', 'MD5-CRYPT', 'BLF-CRYPT', 'SSHA512', 'SSHA256', 'SHA512', 'SHA256', 'PLAIN-MD5', 'SSHA', 'SHA1', 'CRYPT']));
  });

  it.each(lines)('When %s of %j is checked, then its password is accepted and another refused', async (scheme, password, hash) => {
    expect(schemeOf(hash)).toBe(scheme);
    expect(await verifySchemeHash(hash, password)).toBe(true);
    // bcrypt reads the first 72 bytes only, in Dovecot too.
    if (Buffer.byteLength(password) < 72 || !hash.includes('$2y$')) expect(await verifySchemeHash(hash, `${password}x`)).toBe(false);
    expect(await verifySchemeHash(hash, password.slice(1))).toBe(false);
  });
});

describe('the crypt algorithms written from their specifications', () => {
  it("When Drepper's test vectors, and what OpenSSL's passwd makes, are computed, then the results are theirs", () => {
    expect(shaCrypt('sha512', 'Hello world!', '$6$saltstring')).toBe('$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1');
    expect(shaCrypt('sha512', 'Hello world!', '$6$rounds=10000$saltstringsaltstring')).toBe('$6$rounds=10000$saltstringsaltst$OW1/O6BYHV6BcXZu8QVeXbDWra3Oeqh0sbHbbMCVNSnCM/UrjmM0Dp8vOuZeHBy/YTBmSK6H9qs/y3RnOaw5v.');
    expect(shaCrypt('sha256', 'Hello world!', '$5$saltstring')).toBe('$5$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5');
    expect(shaCrypt('sha256', 'Hello world!', '$5$rounds=10000$saltstringsaltstring')).toBe('$5$rounds=10000$saltstringsaltst$3xv.VbSHBb41AL9AvLeujZkZRBAwqFMz2.opqey6IcA');
    expect(shaCrypt('sha256', 'we have a short salt string but not a short password', '$5$rounds=77777$short')).toBe('$5$rounds=77777$short$JiO1O3ZpDAxGJeaDIuqCoEFysAe1mZNJRs3pw0KQRd/');
    expect(md5Crypt('password', '$1$saltstring')).toBe('$1$saltstri$qQY4WxjABChYG1ccLpfkz/');
  });

  it('When a setting asks for fewer than 1,000 rounds, then 1,000 are made (the minimum the specification keeps); 1,000 themselves are as asked', () => {
    // Drepper's test vectors for rounds=10, clamped.
    expect(shaCrypt('sha512', 'the minimum number is still observed', '$6$rounds=10$roundstoolow')).toBe('$6$rounds=1000$roundstoolow$kUMsbe306n21p9R.FRkW3IGn.S9NPN0x50YhH1xhLsPuWGsUSklZt58jaTfF4ZEQpyUNGc0dqbpBYYBaHHrsX.');
    expect(shaCrypt('sha256', 'the minimum number is still observed', '$5$rounds=10$roundstoolow')).toBe('$5$rounds=1000$roundstoolow$yfvwcWrQ8l/K0DAWyuPMDNHpIVlTQebY9l/gL972bIC');
    // At the edge: 999 is 1,000; 1,000 is what doveadm pw -r 1000 made (the fixture's lines).
    const [, password, hash] = lines.find(([scheme, , h]) => scheme === 'SHA512-CRYPT' && h.includes('$rounds=1000$'))!;
    const setting = hash.replace('{SHA512-CRYPT}', '');
    expect(shaCrypt('sha512', password, setting)).toBe(setting);
    expect(shaCrypt('sha512', password, setting.replace('$rounds=1000$', '$rounds=999$'))).toBe(setting);
    const [, password256, hash256] = lines.find(([scheme, , h]) => scheme === 'SHA256-CRYPT' && h.includes('$rounds=1000$'))!;
    const setting256 = hash256.replace('{SHA256-CRYPT}', '');
    expect(shaCrypt('sha256', password256, setting256.replace('$rounds=1000$', '$rounds=999$'))).toBe(setting256);
  });

  it('When a hash is malformed or its scheme unknown, then no password matches it', async () => {
    for (const hash of ['', '{SHA512-CRYPT}', '{SHA512-CRYPT}$6$', '{MD5-CRYPT}nonsense', '{ARGON2ID}$argon2id$broken', '{NOPE}secret', 'secret', '{SSHA512}c2hvcnQ=']) {
      expect(await verifySchemeHash(hash, 'secret')).toBe(false);
    }
  });
});
