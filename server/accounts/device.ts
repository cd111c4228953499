/**
 * A device as people recognise it ("Firefox on Windows"), read from the browser's user agent,
 * and the key by which a device is known again: the user agent without its version numbers, so
 * that a browser's updates do not make a "new device" while another computer or program does.
 */
import crypto from 'node:crypto';

export interface Device {
  browser: string;
  os: string;
}

// First match wins: Edge and Opera also say Chrome, Chrome also says Safari.
const browsers: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  // HeadlessChrome too.
  [/Chrom(e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*Safari\//, 'Safari'],
  [/^curl\//, 'curl'],
  [/^Wget\//i, 'Wget'],
  [/python-requests|aiohttp|urllib/i, 'Python'],
  [/^node|undici|axios/i, 'Node.js'],
  [/^Go-http-client/, 'Go'],
];
const systems: [RegExp, string][] = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

const firstOf = (list: [RegExp, string][], text: string) => list.find(([pattern]) => pattern.test(text))?.[1] ?? '';

export function deviceOf(userAgent: string): Device {
  return { browser: firstOf(browsers, userAgent), os: firstOf(systems, userAgent) };
}

/** "Chrome (Linux)", "curl", or the start of the user agent when neither is known. */
export function deviceName(userAgent: string): string {
  const { browser, os } = deviceOf(userAgent);
  if (browser && os) return `${browser} (${os})`;
  return browser || os || userAgent.slice(0, 60) || '?';
}

export const deviceKey = (userAgent: string) =>
  crypto.createHash('sha256').update(userAgent.replace(/[\d._]+/g, '').replace(/\s+/g, ' ').trim()).digest('hex');
