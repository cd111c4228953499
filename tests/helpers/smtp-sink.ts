/**
 * A real SMTP server (the smtp-server package) that keeps what it receives, for tests of
 * outgoing mail. It can be "down" first: its port is chosen free, and nothing listens on it
 * until up() is called.
 */
import net from 'node:net';
import { SMTPServer } from 'smtp-server';

export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A message as the sink got it: the envelope, the client's address and the message itself. */
export interface SinkMessage {
  from: string;
  to: string[];
  remoteAddress: string;
  helo: string;
  data: string;
}

export async function smtpSink() {
  const port = await freePort();
  const received: string[] = [];
  const messages: SinkMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const data = Buffer.concat(chunks).toString('utf8');
        received.push(data);
        const mailFrom = session.envelope.mailFrom;
        messages.push({
          from: mailFrom ? mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          remoteAddress: session.remoteAddress,
          helo: session.hostNameAppearsAs,
          data,
        });
        callback();
      });
    },
  });
  let listening = false;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The same messages with their envelopes. */
    messages,
    async up() {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      });
      listening = true;
    },
    async close() {
      if (listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
