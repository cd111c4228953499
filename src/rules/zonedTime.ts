/**
 * Wall-clock times in a named time zone (the owner's, not the browser's): an out-of-office reply
 * starts "1 December 09:00 in Asia/Shanghai" whatever zone the person typing it is in. The form
 * holds the wall time as "YYYY-MM-DDTHH:mm"; the API stores the moment in UTC and the zone.
 */
const pad = (n: number) => String(n).padStart(2, '0');

function partsIn(moment: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(moment);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** How far ahead of UTC the zone's clocks are at a moment, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const p = partsIn(new Date(ms), timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The browser's zone, the default for an owner who has set none. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Every zone the browser knows (IANA names), UTC included. */
export function timeZoneNames(): string[] {
  const known = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return known.includes('UTC') ? known : ['UTC', ...known];
}

/** "2026-12-01T09:00" in a zone → the ISO moment (UTC); in a gap (spring forward) the later side. */
export function wallToUtc(wall: string, timeZone: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(wall);
  if (!m) return undefined;
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  const first = offsetAt(asUtc, timeZone);
  let moment = asUtc - first;
  const second = offsetAt(moment, timeZone);
  if (second !== first) moment = asUtc - second;
  return new Date(moment).toISOString();
}

/** An ISO moment → its wall time "YYYY-MM-DDTHH:mm" in a zone. */
export function utcToWall(iso: string | null | undefined, timeZone: string): string | null {
  if (!iso) return null;
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return null;
  const p = partsIn(moment, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}
