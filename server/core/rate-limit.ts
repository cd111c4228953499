/**
 * Fixed-window rate limits for code and reset calls and the contact form, per account and
 * per IP, for API keys (per key, API_KEY_RATE_LIMIT), and the sign-in throttle (see signInPolicy). In memory by default; in Redis when
 * REDIS_URL is set, so that several instances share the counts.
 */
import { AppError } from './errors.js';

export interface Limit {
  /** Calls allowed per window. */
  max: number;
  windowSeconds: number;
}

/** Every limit the API applies, in one place. */
export const limits = {
  codeCheckPerAccount: { max: 10, windowSeconds: 15 * 60 },
  codeCheckPerIp: { max: 50, windowSeconds: 15 * 60 },
  codeSendPerAccount: { max: 5, windowSeconds: 60 * 60 },
  codeSendPerIp: { max: 20, windowSeconds: 60 * 60 },
  guestMessagePerIp: { max: 5, windowSeconds: 60 * 60 },
  // Team-member invitations: each one mails an address the customer names.
  invitationSendPerCustomer: { max: 100, windowSeconds: 60 * 60 },
  // Passkey sign-in (with or without a password first): each options call stores a challenge,
  // each try checks a signature. As many as the code checks of one address.
  passkeyOptionsPerIp: { max: 50, windowSeconds: 15 * 60 },
  passkeySignInPerIp: { max: 50, windowSeconds: 15 * 60 },
} satisfies Record<string, Limit>;

export interface CounterStore {
  /** Adds one to the counter and returns the new count and the seconds until it resets. */
  increment(key: string, windowSeconds: number): Promise<{ count: number; resetInSeconds: number }>;
  /** The counter as it is (0 when none runs). */
  peek(key: string): Promise<{ count: number; resetInSeconds: number }>;
  /** Ends a counter's window now. */
  reset(key: string): Promise<void>;
  /** Forgets counters whose window has ended (Redis expires its own). */
  sweep?(): Promise<void>;
  close(): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, { count: number; resetAt: number }>();
  async increment(key: string, windowSeconds: number) {
    const nowMs = Date.now();
    let entry = this.counters.get(key);
    if (!entry || entry.resetAt <= nowMs) {
      if (this.counters.size > 100_000) void this.sweep(nowMs);
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
  async reset(key: string) {
    this.counters.delete(key);
  }
  async sweep(nowMs = Date.now()) {
    for (const [key, entry] of this.counters) if (entry.resetAt <= nowMs) this.counters.delete(key);
  }
  /** How many counters are held (housekeeping's test reads it). */
  get size() {
    return this.counters.size;
  }
  async close() {}
}

/**
 * Sign-in throttling after OWASP's guidance: failures are counted per (account, source) and
 * per source, and a source that keeps failing waits longer and longer (1 s, 2 s, 4 s, … up to
 * 15 minutes) — for that account, or for every account once it fails on many. No account is
 * ever locked: its owner, signing in from an address that has not been failing, gets in at
 * once whatever others try, and is told by e-mail when the account is being guessed.
 */
export const signInPolicy = {
  windowSeconds: 15 * 60,
  /** Failures of one source on one account before it has to wait (typos). */
  freeFailuresPerSource: 3,
  /** Failures of one source across accounts before it waits for every account. */
  sourceFailuresBeforeDelay: 20,
  /** Failures on one account from all sources that make it "being guessed". */
  accountGuessedAfter: 10,
  maxDelaySeconds: 15 * 60,
  noticeEverySeconds: 60 * 60,
};

/** The wait after the n-th failure beyond the free ones: doubling from 1 s, at most maxDelaySeconds. */
export const growingDelay = (n: number) => Math.min(2 ** Math.min(n - 1, 20), signInPolicy.maxDelaySeconds);

type LimitName = keyof typeof limits;
const refusal = (retryAfter: number) => new AppError('rateLimited', 'error.rate_limited', { retry_after: retryAfter, smart_count: retryAfter });

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
   * Counts one call against a limit a setting gives (not one of `limits`), under `name` and `key`;
   * past it refuses with `message`, which gets the limit and the seconds to wait.
   */
  async hitSetting(name: string, key: string, limit: Limit, message: string): Promise<void> {
    const { count, resetInSeconds } = await this.store.increment(`${name}:${key}`, limit.windowSeconds);
    if (count > limit.max) throw new AppError('rateLimited', message, { limit: limit.max, retry_after: resetInSeconds, smart_count: resetInSeconds });
  }

  /**
   * Before a password is checked: refused only while this source must wait, for this account
   * or for every account. Nobody else's failures make the owner wait at their own address.
   */
  async beforeSignIn(account: string, ip: string): Promise<void> {
    for (const key of [`signInWait:${account}|${ip}`, `signInWaitSource:${ip}`]) {
      const { count, resetInSeconds } = await this.store.peek(key);
      if (count > 0) throw refusal(Math.max(1, resetInSeconds));
    }
  }

  /**
   * A wrong password (or a wrong current password on a password change). Answers whether the
   * account has just become one that is being guessed: its owner is then told, once an hour.
   */
  async failedSignIn(account: string, ip: string): Promise<{ accountGuessed: boolean }> {
    const p = signInPolicy;
    const window = p.windowSeconds;
    const pair = (await this.store.increment(`signInFail:${account}|${ip}`, window)).count;
    const source = (await this.store.increment(`signInFailSource:${ip}`, window)).count;
    const onAccount = (await this.store.increment(`signInFailAccount:${account}`, window)).count;
    const guessed = onAccount >= p.accountGuessedAfter;
    // While an account is being guessed from many places, a failing source waits from its first
    // failure, and the longer the more the account has been guessed: a thousand addresses get
    // about one guess each, not one every few seconds.
    if (guessed) await this.store.increment(`signInWait:${account}|${ip}`, growingDelay(pair + onAccount - p.accountGuessedAfter + 1));
    else if (pair > p.freeFailuresPerSource) await this.store.increment(`signInWait:${account}|${ip}`, growingDelay(pair - p.freeFailuresPerSource));
    if (source > p.sourceFailuresBeforeDelay) await this.store.increment(`signInWaitSource:${ip}`, growingDelay(source - p.sourceFailuresBeforeDelay));
    const accountGuessed = guessed && (await this.store.increment(`signInGuessedNotice:${account}`, p.noticeEverySeconds)).count === 1;
    return { accountGuessed };
  }

  /** The right password: this source's failures on the account are forgotten. */
  async succeededSignIn(account: string, ip: string): Promise<void> {
    await this.store.reset(`signInFail:${account}|${ip}`);
  }

  /** Housekeeping: counters of ended windows are dropped. */
  async sweep(): Promise<void> {
    await this.store.sweep?.();
  }

  close() {
    return this.store.close();
  }
}
