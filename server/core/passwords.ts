/** Account passwords: argon2id (OWASP's recommended parameters). */
import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id (a const enum, which isolated modules cannot read): 2.
const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

// argon2 runs on libuv's worker threads (4 by default). At most one hash per core at a time:
// as many as the cores can work on anyway, and the event loop (and file I/O, which shares
// those threads) is not pushed aside by extra hashes waiting for a core.
const cores = Math.max(1, os.availableParallelism());
let running = 0;
const waiting: (() => void)[] = [];
async function oneAtATimePerCore<T>(work: () => Promise<T>): Promise<T> {
  if (running >= cores) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export const hashPassword = (password: string) => oneAtATimePerCore(() => hash(password, options));

const verifyHash = (storedHash: string, password: string) => oneAtATimePerCore(() => verify(storedHash, password)).catch(() => false);

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
