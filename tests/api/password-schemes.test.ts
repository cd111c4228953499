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

  it('When a hash is malformed or its scheme unknown, then no password matches it', async () => {
    for (const hash of ['', '{SHA512-CRYPT}', '{SHA512-CRYPT}$6$', '{MD5-CRYPT}nonsense', '{ARGON2ID}$argon2id$broken', '{NOPE}secret', 'secret', '{SSHA512}c2hvcnQ=']) {
      expect(await verifySchemeHash(hash, 'secret')).toBe(false);
    }
  });
});
