/** Domain names and addresses as the mail server stores them (punycode) and people read them (Unicode). */
import { domainToASCII, domainToUnicode } from 'node:url';
import { localPartPattern } from '../../resources/mailbox.js';

const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The punycode form of a domain name a person typed, or undefined when it is not a usable mail domain. */
export function asciiDomain(input: string): string | undefined {
  const text = input.trim().toLowerCase().replace(/\.$/, '');
  if (!text || /[\s@/\\:]/.test(text)) return undefined;
  const ascii = domainToASCII(text);
  if (!ascii || ascii.length > 253) return undefined;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => label.test(l)) || /^\d+$/.test(labels.at(-1)!)) return undefined;
  return ascii;
}

export const unicodeDomain = (ascii: string) => domainToUnicode(ascii) || ascii;

/** An address with its domain in punycode and in Unicode; undefined when it is not one. */
export function mailAddress(input: string): { ascii: string; unicode: string } | undefined {
  const text = input.trim().toLowerCase();
  const at = text.lastIndexOf('@');
  if (at < 1 || text.length > 254) return undefined;
  const local = text.slice(0, at);
  const domain = asciiDomain(text.slice(at + 1));
  if (!domain || local.length > 64 || !localPartPattern.test(local)) return undefined;
  return { ascii: `${local}@${domain}`, unicode: `${local}@${unicodeDomain(domain)}` };
}
