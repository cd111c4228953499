/** A real DNS server on loopback (UDP) answering from a zone the test edits: TXT, MX, CNAME, SRV, A, AAAA and PTR records. */
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';

type Record =
  | { type: 'TXT'; data: string }
  | { type: 'MX'; data: { preference: number; exchange: string } }
  | { type: 'CNAME'; data: string }
  | { type: 'SRV'; data: { priority: number; weight: number; port: number; target: string } }
  | { type: 'A' | 'AAAA'; data: string }
  | { type: 'PTR'; data: string };

/** TXT strings are at most 255 bytes each; longer values (DKIM keys) are split, as zone files do. */
const chunks = (text: string) => text.match(/.{1,255}/g) ?? [''];

/** On a free port, or on `bindPort` (when the app was started with it in DNS_SERVERS before the test runs). */
export async function startDnsServer(bindPort = 0) {
  const zone = new Map<string, Record[]>();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, remote) => {
    const query = dnsPacket.decode(message);
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    const records = zone.get(name);
    const answers = (records ?? [])
      .filter((r) => r.type === question.type)
      .map((r) => ({ name: question.name, type: r.type, class: 'IN' as const, ttl: 5, data: r.type === 'TXT' ? chunks(r.data) : r.data }));
    const reply = dnsPacket.encode({
      id: query.id,
      type: 'response',
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (records ? 0 : 3), // rcode 3: NXDOMAIN
      questions: query.questions,
      answers: answers as dnsPacket.Answer[],
    });
    socket.send(reply, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(bindPort, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    /** For DNS_SERVERS. */
    address: `127.0.0.1:${port}`,
    txt(name: string, ...values: string[]) {
      zone.set(name.toLowerCase(), [...(zone.get(name.toLowerCase()) ?? []).filter((r) => r.type !== 'TXT'), ...values.map((data) => ({ type: 'TXT' as const, data }))]);
    },
    mx(name: string, exchange: string, preference = 10) {
      zone.set(name.toLowerCase(), [...(zone.get(name.toLowerCase()) ?? []).filter((r) => r.type !== 'MX'), { type: 'MX', data: { preference, exchange } }]);
    },
    cname(name: string, target: string) {
      zone.set(name.toLowerCase(), [...(zone.get(name.toLowerCase()) ?? []).filter((r) => r.type !== 'CNAME'), { type: 'CNAME', data: target }]);
    },
    /** value as the DNS page shows it: "priority weight port target". */
    srv(name: string, value: string) {
      const [priority, weight, port, target] = value.split(' ');
      zone.set(name.toLowerCase(), [...(zone.get(name.toLowerCase()) ?? []).filter((r) => r.type !== 'SRV'), { type: 'SRV', data: { priority: Number(priority), weight: Number(weight), port: Number(port), target } }]);
    },
    /** A host's addresses (IPv4 as A, IPv6 as AAAA records). */
    host(name: string, ...ips: string[]) {
      const records = ips.map((ip): Record => ({ type: ip.includes(':') ? 'AAAA' : 'A', data: ip }));
      zone.set(name.toLowerCase(), [...(zone.get(name.toLowerCase()) ?? []).filter((r) => r.type !== 'A' && r.type !== 'AAAA'), ...records]);
    },
    /** An IPv4 address's reverse name (in-addr.arpa). */
    ptr(ip: string, name: string) {
      zone.set(`${ip.split('.').reverse().join('.')}.in-addr.arpa`, [{ type: 'PTR', data: name }]);
    },
    /** Publishes a record of the DNS page exactly as shown. */
    publish(record: { type: string; host: string; value: string; priority?: number }) {
      if (record.type === 'MX') this.mx(record.host, record.value, record.priority);
      else if (record.type === 'CNAME') this.cname(record.host, record.value);
      else if (record.type === 'SRV') this.srv(record.host, record.value);
      else this.txt(record.host, record.value);
    },
    clear: (name: string) => zone.delete(name.toLowerCase()),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

export type DnsServer = Awaited<ReturnType<typeof startDnsServer>>;
