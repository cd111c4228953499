/** The suite hashes at argon2id's least cost (tests/helpers/app.ts); what production stores is checked here. */
import { afterAll, expect, it } from 'vitest';
import { hashPassword, setPasswordCost, verifyPassword } from '../../server/core/passwords.js';
import { fixtureDkimKeys } from '../helpers/app.js';

afterAll(() => setPasswordCost({ memoryCost: 64, timeCost: 1 }));

it('When a password is hashed with the recommended cost, then argon2id with OWASP’s parameters is stored, and only that password verifies', async () => {
  setPasswordCost();
  const hash = await hashPassword('a long enough password');
  expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  expect(await verifyPassword(hash, 'a long enough password')).toBe(true);
  expect(await verifyPassword(hash, 'a long enough passwore')).toBe(false);
});

it('When the suite hashes at the least cost, then the hash is still argon2id and verifies the same way', async () => {
  setPasswordCost({ memoryCost: 64, timeCost: 1 });
  const hash = await hashPassword('another password');
  expect(hash).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
  expect(await verifyPassword(hash, 'another password')).toBe(true);
  expect(await verifyPassword(hash, 'another passwore')).toBe(false);
  // The keys the suite takes instead of generating are real 2048-bit RSA keys.
  expect((await fixtureDkimKeys()).privateKey).toContain('BEGIN PRIVATE KEY');
});
