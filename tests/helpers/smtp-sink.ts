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

export async function smtpSink() {
  const port = await freePort();
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });
  let listening = false;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
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
