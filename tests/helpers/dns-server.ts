/** A real DNS server on loopback (UDP) answering from a zone the test edits: TXT and MX records. */
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';

type Record = { type: 'TXT'; data: string } | { type: 'MX'; data: { preference: number; exchange: string } };

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
    clear: (name: string) => zone.delete(name.toLowerCase()),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

export type DnsServer = Awaited<ReturnType<typeof startDnsServer>>;
