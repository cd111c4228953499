/**
 * Timestamps are ISO 8601 UTC strings: they sort as text on SQLite and PostgreSQL alike.
 * Business logic reads the time here, so that tests can move the clock (expiry, retries,
 * schedules) without waiting.
 */
let offsetMs = 0;

export const nowMs = () => Date.now() + offsetMs;
export const now = () => new Date(nowMs()).toISOString();
export const inMinutes = (minutes: number, from = nowMs()) => new Date(from + minutes * 60_000).toISOString();
export const inSeconds = (seconds: number, from = nowMs()) => new Date(from + seconds * 1000).toISOString();
export const DAY_MS = 86_400_000;
export const daysAgo = (days: number, from = nowMs()) => new Date(from - days * DAY_MS).toISOString();
/** "2026-01-08 14:30 UTC": a time in a message or an e-mail, the same in both languages. */
export const timeText = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** Tests only: moves this process's clock forward (or back) by `ms`. */
export function moveClock(ms: number) {
  offsetMs += ms;
}
/** Tests only: back to the real time. */
export function resetClock() {
  offsetMs = 0;
}

/** Tests only: business time reads `at` from now on (it keeps running); no argument: the real clock again. */
export function setClock(at?: Date | string) {
  offsetMs = at === undefined ? 0 : new Date(at).getTime() - Date.now();
}
