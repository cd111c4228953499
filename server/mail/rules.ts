/**
 * A mailbox's rules (out-of-office, forwarding) as the Sieve script Dovecot's Pigeonhole runs at
 * delivery. Pure: the same rules and addresses make the same script, so that the script's id
 * (which changes with its text) tells Pigeonhole when to compile it again.
 */
import crypto from 'node:crypto';

import { DEFAULT_INTERVAL_DAYS, MAX_FORWARD_ADDRESSES, type Forwarding, type OutOfOffice } from '../../resources/mailbox_rule.js';

export { DEFAULT_INTERVAL_DAYS, MAX_FORWARD_ADDRESSES, type Forwarding, type OutOfOffice } from '../../resources/mailbox_rule.js';

export interface MailboxRules {
  out_of_office: OutOfOffice;
  forwarding: Forwarding;
}

export const noRules: MailboxRules = {
  out_of_office: { enabled: false, starts_at: null, ends_at: null, time_zone: 'UTC', subject: '', body: '', interval_days: DEFAULT_INTERVAL_DAYS },
  forwarding: { enabled: false, addresses: [], keep_copy: true },
};

/** A Sieve quoted string (RFC 5228 2.4.2): backslash and double quote escaped; line breaks as CRLF. */
export function sieveString(value: string): string {
  return `"${value.replace(/\r\n|\r|\n/g, '\r\n').replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

const sieveList = (values: string[]) => `[${values.map(sieveString).join(', ')}]`;

/** ISO 8601 in UTC as Pigeonhole's `currentdate :zone "+0000" "iso8601"` writes it (2026-11-27T09:00:00Z). */
const sieveInstant = (iso: string) => `${new Date(iso).toISOString().slice(0, 19)}Z`;

/**
 * The script for a mailbox's rules, or null when no rule is on (no script: plain delivery).
 * `ownAddresses`: every address that delivers to the mailbox (itself, the aliases that deliver
 * only to it, their forms in alias domains); the reply goes only to mail sent to one of them.
 */
export function sieveScript(rules: MailboxRules, ownAddresses: string[]): string | null {
  const ooo = rules.out_of_office;
  const fwd = rules.forwarding;
  const forwarding = fwd.enabled && fwd.addresses.length > 0;
  if (!ooo.enabled && !forwarding) return null;

  const requires = new Set<string>();
  const lines: string[] = ['# Made by Maildesk from the mailbox\'s rules; changed only through Maildesk.'];
  if (ooo.enabled) {
    requires.add('vacation');
    const tests: string[] = [];
    if (ooo.starts_at || ooo.ends_at) requires.add('date').add('relational');
    if (ooo.starts_at) tests.push(`currentdate :zone "+0000" :value "ge" "iso8601" ${sieveString(sieveInstant(ooo.starts_at))}`);
    if (ooo.ends_at) tests.push(`currentdate :zone "+0000" :value "le" "iso8601" ${sieveString(sieveInstant(ooo.ends_at))}`);
    // Pigeonhole's vacation already keeps quiet for these; said here too, so that the rule is visible.
    tests.push('not exists "List-Id"');
    tests.push('not header :is "Precedence" ["list", "bulk", "junk"]');
    tests.push('not header :matches "Auto-Submitted" "auto-*"');
    const addresses = [...new Set(ownAddresses.map((a) => a.toLowerCase()))];
    lines.push('# Out of office: one reply per sender per interval, never to lists, bulk or automatic mail.');
    lines.push(`if allof (${tests.join(',\r\n          ')}) {`);
    lines.push(`  vacation :days ${ooo.interval_days} :subject ${sieveString(ooo.subject)} :addresses ${sieveList(addresses)} ${sieveString(ooo.body)};`);
    lines.push('}');
  }
  if (forwarding) {
    lines.push(fwd.keep_copy ? '# Forwarding, with a copy kept here.' : '# Forwarding, with no copy kept here.');
    if (fwd.keep_copy) requires.add('copy');
    for (const address of fwd.addresses) lines.push(`redirect${fwd.keep_copy ? ' :copy' : ''} ${sieveString(address)};`);
    if (fwd.keep_copy) lines.push('keep;');
  }
  // A string list has at least one string: no require line when nothing is needed.
  return [...(requires.size ? [`require ${sieveList([...requires])};`] : []), ...lines, ''].join('\r\n');
}

/** The script's id: the mailbox and a digest of the text, so that a changed script has a new one. */
export const scriptIdOf = (mailboxId: number, script: string) => `${mailboxId}-${crypto.createHash('sha256').update(script).digest('hex').slice(0, 16)}`;

/**
 * Forwarding targets as they will be stored: lower case, each once, at most MAX_FORWARD_ADDRESSES,
 * none of the mailbox's own addresses (mail would go round). Answers the first problem, or the list.
 */
export function forwardTargets(addresses: string[], ownAddresses: string[]): { problem: 'own_address' | 'too_many'; address?: string } | { targets: string[] } {
  const own = new Set(ownAddresses.map((a) => a.toLowerCase()));
  const targets = [...new Set(addresses.map((a) => a.trim().toLowerCase()))];
  const loop = targets.find((a) => own.has(a));
  if (loop) return { problem: 'own_address', address: loop };
  if (targets.length > MAX_FORWARD_ADDRESSES) return { problem: 'too_many' };
  return { targets };
}
