/** DKIM keys of a domain: made with it, and rotated by publishing a next key beside the current one before the switch. */
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const generateKeyPair = promisify(crypto.generateKeyPair);

export async function dkimKeyPair() {
  const { publicKey, privateKey } = await generateKeyPair('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey, privateKey };
}

/** Selectors name the key's month; a rotation adds a random tail, so that two keys of one month differ. */
export const selectorOf = (at: Date, rotated = false) =>
  `md${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}${rotated ? `-${crypto.randomBytes(2).toString('hex')}` : ''}`;
