/** Account passwords: argon2id (OWASP's recommended parameters), hashed off the main thread (password-workers.ts). */
import { hashOnWorker, PasswordSchemeError, verifyOnWorker } from './password-workers.js';

// Algorithm.Argon2id (a const enum, which isolated modules cannot read): 2.
const recommended = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
let options: { algorithm: 2; memoryCost: number; timeCost: number; parallelism: 1 } = recommended;

/**
 * Tests only: argon2id at another cost (the API suite hashes thousands of passwords; the hashes
 * keep their scheme and format, and are verified as any other); no argument: the recommended one.
 */
export function setPasswordCost(cost?: { memoryCost: number; timeCost: number }) {
  options = cost ? { ...recommended, ...cost } : recommended;
}

export const hashPassword = (password: string) => hashOnWorker(password, options);

// A hash argon2 cannot read matches no password; a worker that could not answer is an error, never "wrong password".
const verifyHash = (storedHash: string, password: string) =>
  verifyOnWorker(storedHash, password).catch((error) => {
    if (error instanceof PasswordSchemeError) return false;
    throw error;
  });

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
