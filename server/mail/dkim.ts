/** DKIM keys of a domain: made with it, and rotated by publishing a next key beside the current one before the switch. */
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { audit, type RequestOrigin } from '../core/audit.js';
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { Selectable } from 'kysely';
import type { DomainRow } from '../db/schema.js';

const generateKeyPair = promisify(crypto.generateKeyPair);

export interface DkimKeyPair {
  publicKey: string;
  privateKey: string;
}

async function generatedKeyPair(): Promise<DkimKeyPair> {
  const { publicKey, privateKey } = await generateKeyPair('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey, privateKey };
}

let nextKeyPair = generatedKeyPair;

/** A new 2048-bit RSA key pair for a domain's DKIM signing. */
export const dkimKeyPair = () => nextKeyPair();

/**
 * Tests only: new key pairs come from `source` (real keys made once: a 2048-bit generation costs
 * 100–300 ms of CPU, and the API suite makes hundreds of domains); no argument: generated again.
 */
export function takeDkimKeysFrom(source?: () => Promise<DkimKeyPair>) {
  nextKeyPair = source ?? generatedKeyPair;
}

/** Selectors name the key's month; a rotation adds a random tail, so that two keys of one month differ. */
export const selectorOf = (at: Date, rotated = false) =>
  `md${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}${rotated ? `-${crypto.randomBytes(2).toString('hex')}` : ''}`;

/**
 * Signing moves to the next key (OpenDKIM reads it for the next message); the old record may go
 * afterwards. Whoever calls this has seen the next key's record in DNS. False when another
 * switch (the customer's, or the DNS watch's) came first.
 */
export async function switchToNextKey(trx: Db, origin: RequestOrigin, domain: Pick<Selectable<DomainRow>, 'id' | 'owner_id' | 'dkim_selector' | 'dkim_next_selector' | 'dkim_next_public_key' | 'dkim_next_private_key'>): Promise<boolean> {
  if (!domain.dkim_next_selector || !domain.dkim_next_public_key || !domain.dkim_next_private_key) return false;
  const switched = { dkim_selector: domain.dkim_next_selector, dkim_public_key: domain.dkim_next_public_key, dkim_private_key: domain.dkim_next_private_key };
  const result = await trx
    .updateTable('domain')
    .set({ ...switched, dkim_next_selector: null, dkim_next_public_key: null, dkim_next_private_key: null, updated_at: now() })
    .where('id', '=', domain.id)
    .where('dkim_next_selector', '=', domain.dkim_next_selector)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await audit(trx, origin, { action: 'dkim_switch', targetType: 'domain', targetId: domain.id, userId: domain.owner_id, before: { dkim_selector: domain.dkim_selector }, after: { dkim_selector: switched.dkim_selector } });
  return true;
}
