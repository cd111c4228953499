/** Account passwords: argon2id (OWASP's recommended parameters), hashed off the main thread (password-workers.ts). */
import { hashOnWorker, verifyOnWorker } from './password-workers.js';

// Algorithm.Argon2id (a const enum, which isolated modules cannot read): 2.
const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hashOnWorker(password, options);

const verifyHash = (storedHash: string, password: string) => verifyOnWorker(storedHash, password).catch(() => false);

// Verified against when an account does not exist, so that a wrong e-mail takes as long as a wrong password.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword('maildesk-timing-equaliser');
    await verifyHash(await dummyHash, password);
    return false;
  }
  return verifyHash(storedHash, password);
}
