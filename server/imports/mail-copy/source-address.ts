/**
 * Where a copy may connect. A customer names the old server; without this check they could make
 * the panel connect anywhere it can reach, its own machine and network included (127.0.0.1 has
 * many spellings: localhost, 127.1, 2130706433, 0x7f000001, [::ffff:127.0.0.1]). So the name is
 * resolved, every address it has is checked, and the copy connects to the address checked, never
 * to the name again (a second lookup could answer another address: DNS rebinding). Loopback,
 * private, link-local, multicast and reserved ranges are refused unless the operator allows a
 * range (MAIL_COPY_ALLOW_NETWORKS, e.g. an old server on the provider's own network).
 */
import dns from 'node:dns/promises';
import net from 'node:net';

/** Not the internet: the panel's own machine and networks, and ranges nobody serves mail from. */
const notTheInternet: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"; 0.0.0.0 reaches the panel's own machine
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata services
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['::', 96, 'ipv6'], // IPv4-compatible (deprecated)
  ['100::', 64, 'ipv6'], // discard
  ['2001:db8::', 32, 'ipv6'],
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
];

const refusedRanges = new net.BlockList();
for (const [base, bits, type] of notTheInternet) refusedRanges.addSubnet(base, bits, type);

/**
 * MAIL_COPY_ALLOW_NETWORKS: ranges (CIDR, or single addresses) a copy may reach although they are
 * private or local. A malformed entry stops the start, not a copy at 3 a.m.
 */
export function parseAllowedNetworks(text: string | undefined): string[] {
  const entries = (text ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of entries) {
    const [base, bits, extra] = entry.split('/');
    const family = net.isIP(base);
    const max = family === 6 ? 128 : 32;
    if (!family || extra !== undefined || (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= max))) {
      throw new Error(`MAIL_COPY_ALLOW_NETWORKS: "${entry}" is not an address or a range such as 10.1.2.0/24 or fd00::/8`);
    }
  }
  return entries;
}

function listOf(entries: readonly string[]) {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [base, bits] = entry.split('/');
    const type = net.isIP(base) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(base, type);
    else list.addSubnet(base, Number(bits), type);
  }
  return list;
}

/** The eight 16-bit groups of an IPv6 address (with a dotted IPv4 tail or not). */
function groupsOf(address: string): number[] {
  let text = address;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1].split('.').map(Number);
    text = `${text.slice(0, -tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const zeros = rest === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16));
}

/**
 * The IPv4 address an IPv6 address carries, for the addresses that reach it: IPv4-mapped
 * (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::).
 */
function carriedIpv4(address: string): string | undefined {
  const g = groupsOf(address);
  const v4 = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4(g[6], g[7]);
  if (g[0] === 0x2002) return v4(g[1], g[2]);
  return undefined;
}

/** Whether a copy may connect to this address (an IP address, as a lookup answers it). */
export function reachable(address: string, allowed: readonly string[]): boolean {
  const family = net.isIP(address);
  if (!family) return false;
  const allow = listOf(allowed);
  const v4 = family === 6 ? carriedIpv4(address) : address;
  const [checked, type] = v4 ? [v4, 'ipv4' as const] : [address, 'ipv6' as const];
  if (allow.check(address, family === 6 ? 'ipv6' : 'ipv4') || allow.check(checked, type)) return true;
  return !refusedRanges.check(checked, type);
}

export type SourceAddress =
  /** The address to connect to, checked. */
  | { ok: true; address: string }
  /** The name has an address the panel must not reach (every one is checked: the connection could take any). */
  | { ok: false; why: 'refused'; address: string }
  /** No address (no such name, the resolver failed or took too long). */
  | { ok: false; why: 'unresolved'; detail: string };

/** Resolves the old server's name (or reads its address) and checks every address it has. */
export async function sourceAddress(host: string, allowed: readonly string[], timeoutMs = 5000): Promise<SourceAddress> {
  const name = host.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    // The system's resolver, as a connection would use it (it also reads 127.1 and 2130706433 as 127.0.0.1).
    const answers = await Promise.race([
      dns.lookup(name, { all: true, verbatim: true }),
      new Promise<never>((_resolve, reject) => setTimeout(() => reject(Object.assign(new Error('lookup timed out'), { code: 'ETIMEOUT' })), timeoutMs).unref()),
    ]);
    addresses = answers.map((a) => a.address);
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return { ok: false, why: 'unresolved', detail: `${name}: ${e.code ?? e.message ?? String(error)}` };
  }
  if (addresses.length === 0) return { ok: false, why: 'unresolved', detail: `${name}: no address` };
  const refused = addresses.find((address) => !reachable(address, allowed));
  if (refused) return { ok: false, why: 'refused', address: refused };
  return { ok: true, address: addresses[0] };
}
