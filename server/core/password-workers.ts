/**
 * Password hashing on worker threads of lower priority, one per core, started at first use.
 *
 * An argon2 hash holds a core for tens of milliseconds. On libuv's thread pool at normal
 * priority, a burst of them (8 mailboxes created at once) takes every core, and each
 * request's own work (the event loop, PostgreSQL's backends) waits behind them for its time
 * slice. At a lower priority (Linux: nice 10) hashing gets what the rest leaves, which is
 * nearly everything: requests stay quick, and hashes are as many per second. Each worker also
 * queues its own jobs, so a core goes from one hash to the next without waiting for the event
 * loop to hand it over.
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import { Worker } from 'node:worker_threads';

const NICE = 10;

// Plain CommonJS, so that it runs alike from TypeScript sources (tsx, vitest) and from dist/.
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2);
try {
  // On Linux each thread has its own nice value; /proc/thread-self names this one.
  const thread = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(thread, workerData.nice);
} catch {}
parentPort.on('message', ({ id, op, args }) => {
  try {
    const result = op === 'hash' ? argon2.hashSync(args[0], args[1]) : argon2.verifySync(args[0], args[1]);
    parentPort.postMessage({ id, result });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Job {
  op: 'hash' | 'verify';
  args: unknown[];
  /** Tries left after a worker's death: its jobs go to another worker, never answered as a wrong password. */
  retries: number;
  resolve(value: any): void;
  reject(error: Error): void;
}

/** What argon2 itself refused (a malformed hash, say), as against a worker that died under the job. */
export class PasswordSchemeError extends Error {}
interface PasswordWorker {
  worker: Worker;
  jobs: Map<number, Job>;
}

const poolSize = Math.max(1, os.availableParallelism());
const argon2Module = createRequire(import.meta.url).resolve('@node-rs/argon2');
const workers: PasswordWorker[] = [];
let lastId = 0;

function startWorker(): PasswordWorker {
  const worker = new Worker(workerSource, { eval: true, workerData: { argon2: argon2Module, nice: NICE } });
  const entry: PasswordWorker = { worker, jobs: new Map() };
  // An idle pool does not keep the process alive; one with work does.
  worker.unref();
  worker.on('message', ({ id, result, error }: { id: number; result?: unknown; error?: string }) => {
    const job = entry.jobs.get(id)!;
    entry.jobs.delete(id);
    if (entry.jobs.size === 0) worker.unref();
    if (error === undefined) job.resolve(result);
    else job.reject(new PasswordSchemeError(error));
  });
  const fail = (error: Error) => {
    const at = workers.indexOf(entry);
    if (at >= 0) workers.splice(at, 1);
    const orphans = [...entry.jobs.values()];
    entry.jobs.clear();
    if (orphans.length) console.error(`A password worker stopped (${error.message}); its ${orphans.length} job(s) go to another.`);
    for (const job of orphans) {
      if (job.retries > 0) submit({ ...job, retries: job.retries - 1 });
      else job.reject(error);
    }
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`password worker exited (${code})`)));
  workers.push(entry);
  return entry;
}

function submit(job: Job) {
  // The least busy worker, or a new one while every worker is busy and there are fewer than cores.
  let target = workers.reduce<PasswordWorker | undefined>((best, w) => (best && best.jobs.size <= w.jobs.size ? best : w), undefined);
  if (!target || (target.jobs.size > 0 && workers.length < poolSize)) target = startWorker();
  const { worker, jobs } = target;
  const id = ++lastId;
  jobs.set(id, job);
  if (jobs.size === 1) worker.ref();
  worker.postMessage({ id, op: job.op, args: job.args });
}

function run<T>(op: 'hash' | 'verify', args: unknown[]): Promise<T> {
  return new Promise<T>((resolve, reject) => submit({ op, args, retries: 2, resolve, reject }));
}

export const hashOnWorker = (password: string, options: object) => run<string>('hash', [password, options]);
export const verifyOnWorker = (storedHash: string, password: string) => run<boolean>('verify', [storedHash, password]);
