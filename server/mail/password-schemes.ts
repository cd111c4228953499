/**
 * Mailbox password hashes as Dovecot stores them, `{SCHEME}hash`, checked the way Dovecot
 * checks them: the panel's own ARGON2ID, and what imported mailboxes bring (ARGON2I, the crypt(3)
 * families SHA512-CRYPT, SHA256-CRYPT, MD5-CRYPT and BLF-CRYPT, the salted and plain digests of
 * LDAP's tradition, PLAIN-MD5, and clear text). The SHA-crypt and MD5-crypt algorithms are written
 * here from their specifications (Drepper's "Unix crypt using SHA-256 and SHA-512", and
 * FreeBSD's md5crypt) over node:crypto; bcrypt is bcryptjs; argon2 is @node-rs/argon2 on the
 * password workers. tests/fixtures/dovecot-hashes.tsv holds hashes made by `doveadm pw`.
 */
import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import { verifyOnWorker } from '../core/password-workers.js';

/** The scheme the panel writes; anything else is replaced by it at the owner's next sign-in. */
export const PREFERRED_SCHEME = 'ARGON2ID';

/** The scheme of a stored hash: its `{SCHEME}` prefix, or what a bare crypt(3) string says it is. */
export function schemeOf(stored: string): string | undefined {
  const prefixed = /^\{([A-Z0-9.-]+)\}/i.exec(stored);
  if (prefixed) return prefixed[1].toUpperCase();
  if (stored.startsWith('$argon2id$')) return 'ARGON2ID';
  if (stored.startsWith('$argon2i$')) return 'ARGON2I';
  return cryptSchemeOf(stored);
}

const cryptSchemeOf = (hash: string) =>
  hash.startsWith('$6$') ? 'SHA512-CRYPT' : hash.startsWith('$5$') ? 'SHA256-CRYPT' : hash.startsWith('$1$') ? 'MD5-CRYPT' : /^\$2[abxy]?\$/.test(hash) ? 'BLF-CRYPT' : undefined;

/** Whether the password matches the stored hash; an unknown scheme or a malformed hash never does. */
export async function verifySchemeHash(stored: string, password: string): Promise<boolean> {
  const scheme = schemeOf(stored);
  if (!scheme) return false;
  const hash = stored.replace(/^\{[^}]*\}/, '');
  try {
    switch (scheme.replace(/\.(HEX|B64|BASE64)$/, '')) {
      case 'ARGON2ID':
      case 'ARGON2I':
        return await verifyOnWorker(hash, password);
      case 'CRYPT':
      case 'SHA512-CRYPT':
      case 'SHA256-CRYPT':
      case 'MD5-CRYPT':
      case 'BLF-CRYPT':
        return await verifyCrypt(hash, password);
      case 'SSHA512':
        return saltedDigest('sha512', 64, hash, password);
      case 'SSHA256':
        return saltedDigest('sha256', 32, hash, password);
      case 'SSHA':
        return saltedDigest('sha1', 20, hash, password);
      case 'SMD5':
        return saltedDigest('md5', 16, hash, password);
      case 'SHA512':
        return plainDigest('sha512', 64, hash, password);
      case 'SHA256':
        return plainDigest('sha256', 32, hash, password);
      case 'SHA':
      case 'SHA1':
        return plainDigest('sha1', 20, hash, password);
      case 'PLAIN-MD5':
      case 'LDAP-MD5':
        return plainDigest('md5', 16, hash, password);
      case 'PLAIN':
      case 'CLEAR':
      case 'CLEARTEXT':
        return same(Buffer.from(hash), Buffer.from(password));
      default:
        return false;
    }
  } catch {
    return false;
  }
}

/** crypt(3) strings: the scheme named by `$id$`. */
async function verifyCrypt(hash: string, password: string): Promise<boolean> {
  switch (cryptSchemeOf(hash)) {
    case 'SHA512-CRYPT':
      return same(Buffer.from(shaCrypt('sha512', password, hash)), Buffer.from(hash));
    case 'SHA256-CRYPT':
      return same(Buffer.from(shaCrypt('sha256', password, hash)), Buffer.from(hash));
    case 'MD5-CRYPT':
      return same(Buffer.from(md5Crypt(password, hash)), Buffer.from(hash));
    case 'BLF-CRYPT':
      // bcryptjs reads $2a$ and $2b$; $2y$ (PHP's, Dovecot's) is the same algorithm.
      return bcrypt.compare(password, hash.replace(/^\$2[xy]\$/, '$2b$'));
    default:
      return false;
  }
}

const same = (a: Buffer, b: Buffer) => a.length === b.length && crypto.timingSafeEqual(a, b);

/** A digest as Dovecot writes it: base64 by default, hex when the length says so. */
function decodeDigest(text: string, size: number): Buffer {
  if (text.length === size * 2 && /^[0-9a-f]+$/i.test(text)) return Buffer.from(text, 'hex');
  return Buffer.from(text, 'base64');
}

function plainDigest(algorithm: string, size: number, hash: string, password: string): boolean {
  const expected = decodeDigest(hash, size);
  return expected.length === size && same(crypto.createHash(algorithm).update(password).digest(), expected);
}

/** {SSHA512} and friends: base64 of digest(password + salt) followed by the salt. */
function saltedDigest(algorithm: string, size: number, hash: string, password: string): boolean {
  const decoded = Buffer.from(hash, 'base64');
  if (decoded.length <= size) return false;
  const salt = decoded.subarray(size);
  return same(crypto.createHash(algorithm).update(password).update(salt).digest(), decoded.subarray(0, size));
}

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** crypt's base64: 24 bits at a time, least significant six bits first. */
function to64(b2: number, b1: number, b0: number, characters: number): string {
  let w = (b2 << 16) | (b1 << 8) | b0;
  let out = '';
  for (let i = 0; i < characters; i++) {
    out += ITOA64[w & 0x3f];
    w >>>= 6;
  }
  return out;
}

/** `bytes` repeated to fill `length` bytes. */
function repeated(bytes: Buffer, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i += bytes.length) bytes.copy(out, i, 0, Math.min(bytes.length, length - i));
  return out;
}

const ROUNDS_DEFAULT = 5000;
const ROUNDS_MIN = 1000;
const ROUNDS_MAX = 999_999_999;

// The order in which SHA-crypt writes the digest's bytes, three at a time.
const SHA512_ORDER = [
  [0, 21, 42], [22, 43, 1], [44, 2, 23], [3, 24, 45], [25, 46, 4], [47, 5, 26], [6, 27, 48], [28, 49, 7], [50, 8, 29], [9, 30, 51], [31, 52, 10],
  [53, 11, 32], [12, 33, 54], [34, 55, 13], [56, 14, 35], [15, 36, 57], [37, 58, 16], [59, 17, 38], [18, 39, 60], [40, 61, 19], [62, 20, 41],
];
const SHA256_ORDER = [
  [0, 10, 20], [21, 1, 11], [12, 22, 2], [3, 13, 23], [24, 4, 14], [15, 25, 5], [6, 16, 26], [27, 7, 17], [18, 28, 8], [9, 19, 29],
];

/** SHA-crypt ($5$ / $6$, optional rounds=N): the full crypt string for the password with the setting of `setting`. */
export function shaCrypt(algorithm: 'sha256' | 'sha512', password: string, setting: string): string {
  const id = algorithm === 'sha512' ? '6' : '5';
  const match = new RegExp(`^\\$${id}\\$(?:rounds=(\\d+)\\$)?([^$]*)`).exec(setting);
  if (!match) throw new Error('not a SHA-crypt setting');
  const customRounds = match[1] !== undefined;
  const rounds = customRounds ? Math.min(ROUNDS_MAX, Math.max(ROUNDS_MIN, Number(match[1]))) : ROUNDS_DEFAULT;
  const salt = Buffer.from(match[2].slice(0, 16));
  const key = Buffer.from(password);
  const hash = (...parts: Buffer[]) => {
    const h = crypto.createHash(algorithm);
    for (const part of parts) h.update(part);
    return h.digest();
  };

  const b = hash(key, salt, key);
  const a = crypto.createHash(algorithm).update(key).update(salt).update(repeated(b, key.length));
  for (let length = key.length; length > 0; length >>= 1) a.update(length & 1 ? b : key);
  let c = a.digest();

  const dp = crypto.createHash(algorithm);
  for (let i = 0; i < key.length; i++) dp.update(key);
  const p = repeated(dp.digest(), key.length);
  const ds = crypto.createHash(algorithm);
  for (let i = 0; i < 16 + c[0]; i++) ds.update(salt);
  const s = repeated(ds.digest(), salt.length);

  for (let i = 0; i < rounds; i++) {
    const h = crypto.createHash(algorithm);
    h.update(i & 1 ? p : c);
    if (i % 3) h.update(s);
    if (i % 7) h.update(p);
    h.update(i & 1 ? c : p);
    c = h.digest();
  }

  let encoded = (algorithm === 'sha512' ? SHA512_ORDER : SHA256_ORDER).map(([x, y, z]) => to64(c[x], c[y], c[z], 4)).join('');
  encoded += algorithm === 'sha512' ? to64(0, 0, c[63], 2) : to64(0, c[31], c[30], 3);
  return `$${id}$${customRounds ? `rounds=${rounds}$` : ''}${salt.toString()}$${encoded}`;
}

/** MD5-crypt ($1$): the full crypt string for the password with the salt of `setting`. */
export function md5Crypt(password: string, setting: string): string {
  const match = /^\$1\$([^$]*)/.exec(setting);
  if (!match) throw new Error('not an MD5-crypt setting');
  const salt = Buffer.from(match[1].slice(0, 8));
  const key = Buffer.from(password);
  const magic = Buffer.from('$1$');

  let final = crypto.createHash('md5').update(key).update(salt).update(key).digest();
  const ctx = crypto.createHash('md5').update(key).update(magic).update(salt);
  for (let left = key.length; left > 0; left -= 16) ctx.update(final.subarray(0, Math.min(left, 16)));
  for (let i = key.length; i; i >>= 1) ctx.update(i & 1 ? Buffer.from([0]) : key.subarray(0, 1));
  final = ctx.digest();

  for (let i = 0; i < 1000; i++) {
    const h = crypto.createHash('md5');
    h.update(i & 1 ? key : final);
    if (i % 3) h.update(salt);
    if (i % 7) h.update(key);
    h.update(i & 1 ? final : key);
    final = h.digest();
  }
  const f = final;
  const encoded =
    to64(f[0], f[6], f[12], 4) + to64(f[1], f[7], f[13], 4) + to64(f[2], f[8], f[14], 4) + to64(f[3], f[9], f[15], 4) + to64(f[4], f[10], f[5], 4) + to64(0, 0, f[11], 2);
  return `$1$${salt.toString()}$${encoded}`;
}
