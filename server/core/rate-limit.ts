/**
 * Fixed-window rate limits for sign-in, code and reset calls and the contact form, per
 * account and per IP. In memory by default; in Redis when REDIS_URL is set, so that several
 * instances share the counts.
 */
import { AppError } from './errors.js';

export interface Limit {
  /** Calls allowed per window. */
  max: number;
  windowSeconds: number;
}

/** Every limit the API applies, in one place. */
export const limits = {
  signInPerAccount: { max: 10, windowSeconds: 15 * 60 },
  signInPerIp: { max: 50, windowSeconds: 15 * 60 },
  codeCheckPerAccount: { max: 10, windowSeconds: 15 * 60 },
  codeCheckPerIp: { max: 50, windowSeconds: 15 * 60 },
  codeSendPerAccount: { max: 5, windowSeconds: 60 * 60 },
  codeSendPerIp: { max: 20, windowSeconds: 60 * 60 },
  guestMessagePerIp: { max: 5, windowSeconds: 60 * 60 },
} satisfies Record<string, Limit>;

export interface CounterStore {
  /** Adds one to the counter and returns the new count and the seconds until it resets. */
  increment(key: string, windowSeconds: number): Promise<{ count: number; resetInSeconds: number }>;
  /** The counter as it is (0 when none runs). */
  peek(key: string): Promise<{ count: number; resetInSeconds: number }>;
  close(): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, { count: number; resetAt: number }>();
  async increment(key: string, windowSeconds: number) {
    const nowMs = Date.now();
    let entry = this.counters.get(key);
    if (!entry || entry.resetAt <= nowMs) {
      if (this.counters.size > 100_000) this.sweep(nowMs);
      entry = { count: 0, resetAt: nowMs + windowSeconds * 1000 };
      this.counters.set(key, entry);
    }
    entry.count += 1;
    return { count: entry.count, resetInSeconds: Math.ceil((entry.resetAt - nowMs) / 1000) };
  }
  async peek(key: string) {
    const entry = this.counters.get(key);
    const nowMs = Date.now();
    if (!entry || entry.resetAt <= nowMs) return { count: 0, resetInSeconds: 0 };
    return { count: entry.count, resetInSeconds: Math.ceil((entry.resetAt - nowMs) / 1000) };
  }
  private sweep(nowMs: number) {
    for (const [key, entry] of this.counters) if (entry.resetAt <= nowMs) this.counters.delete(key);
  }
  async close() {}
}

type LimitName = keyof typeof limits;
const refusal = (retryAfter: number) => new AppError('rateLimited', 'error.rate_limited', { retry_after: retryAfter });

export class RateLimiter {
  constructor(private readonly store: CounterStore) {}

  /** Counts one call against each (limit, key) pair; refuses when any is over. */
  async hit(...checks: [limitName: LimitName, key: string][]): Promise<void> {
    for (const [name, key] of checks) {
      const { count, resetInSeconds } = await this.store.increment(`${name}:${key}`, limits[name].windowSeconds);
      if (count > limits[name].max) throw refusal(resetInSeconds);
    }
  }

  /**
   * Before a password is checked: every attempt counts against the IP, but only failures
   * (see failedSignIn) against the account, so that its owner signing in often is no attack.
   */
  async beforeSignIn(account: string, ip: string): Promise<void> {
    await this.hit(['signInPerIp', ip]);
    const { count, resetInSeconds } = await this.store.peek(`signInPerAccount:${account}`);
    if (count >= limits.signInPerAccount.max) throw refusal(resetInSeconds);
  }

  async failedSignIn(account: string): Promise<void> {
    await this.store.increment(`signInPerAccount:${account}`, limits.signInPerAccount.windowSeconds);
  }

  close() {
    return this.store.close();
  }
}
