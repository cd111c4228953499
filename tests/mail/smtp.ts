/** A plain SMTP client that reports every reply code, so that tests can see where a message was refused. */
import net from 'node:net';
import tls from 'node:tls';

export interface SmtpResult {
  /** Accepted for delivery (250 after DATA). */
  accepted: boolean;
  /** Every reply, "code text", in order. */
  replies: string[];
  /** The first refusal, if any (e.g. "550 5.1.1 …"). */
  refused?: string;
}

export interface Envelope {
  from: string;
  to: string[];
  size?: number;
  auth?: { user: string; pass: string };
  /** STARTTLS before anything else (the test certificate is self-signed). */
  starttls?: boolean;
  /** Connect from this loopback address (127.0.0.2 is "outside" mynetworks in the suite). */
  localAddress?: string;
}

export async function smtpSend(port: number, envelope: Envelope, message: string): Promise<SmtpResult> {
  let socket: net.Socket = net.connect({ port, host: '127.0.0.1', localAddress: envelope.localAddress });
  const replies: string[] = [];
  let buffer = '';
  const waiting: { resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  const listen = (s: net.Socket) => {
    s.setEncoding('utf8');
    s.on('data', (chunk: string) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^\d{3} /.test(line)) waiting.shift()?.resolve(line);
      }
    });
    s.on('error', (error) => waiting.shift()?.reject(error));
  };
  listen(socket);
  const reply = () => new Promise<string>((resolve, reject) => waiting.push({ resolve, reject }));
  const send = async (command: string) => {
    const next = reply();
    socket.write(`${command}\r\n`);
    const line = await next;
    replies.push(line);
    return line;
  };
  const ok = (line: string) => /^[23]/.test(line);
  try {
    replies.push(await reply());
    await send('EHLO client.test');
    if (envelope.starttls) {
      const ready = await send('STARTTLS');
      if (!ok(ready)) return { accepted: false, replies, refused: ready };
      const plain = socket;
      plain.removeAllListeners('data');
      socket = tls.connect({ socket: plain, rejectUnauthorized: false, servername: 'localhost' });
      await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
      listen(socket);
      await send('EHLO client.test');
    }
    if (envelope.auth) {
      const authed = await send(`AUTH PLAIN ${Buffer.from(`\0${envelope.auth.user}\0${envelope.auth.pass}`).toString('base64')}`);
      if (!ok(authed)) return { accepted: false, replies, refused: authed };
    }
    const mailFrom = await send(`MAIL FROM:<${envelope.from}>${envelope.size ? ` SIZE=${envelope.size}` : ''}`);
    if (!ok(mailFrom)) return { accepted: false, replies, refused: mailFrom };
    let anyRecipient = false;
    let refused: string | undefined;
    for (const to of envelope.to) {
      const line = await send(`RCPT TO:<${to}>`);
      if (ok(line)) anyRecipient = true;
      else refused ??= line;
    }
    if (!anyRecipient) {
      await send('QUIT');
      return { accepted: false, replies, refused };
    }
    await send('DATA');
    const body = message.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
    const done = await send(`${body}\r\n.`);
    await send('QUIT');
    return { accepted: ok(done), replies, refused: refused ?? (ok(done) ? undefined : done) };
  } finally {
    socket.destroy();
  }
}

export function message(from: string, to: string, subject: string, body = 'Hello from the Maildesk mail-server suite.') {
  return `From: <${from}>\nTo: <${to}>\nSubject: ${subject}\nMessage-ID: <${Date.now()}.${Math.random().toString(36).slice(2)}@client.test>\nDate: ${new Date().toUTCString()}\n\n${body}\n`;
}
