/** Logging in over POP3 as a mail program does: STLS first (Dovecot refuses passwords without TLS), then USER and PASS. */
import net from 'node:net';
import tls from 'node:tls';

/** Dovecot's answer to PASS ("+OK …" or "-ERR …"), and the message count STAT reports after a login. */
export async function pop3Login(port: number, user: string, pass: string, localAddress?: string): Promise<{ ok: boolean; reply: string; messages?: number }> {
  let socket: net.Socket = net.connect({ port, host: '127.0.0.1', localAddress });
  let buffer = '';
  const waiting: ((line: string) => void)[] = [];
  const listen = (s: net.Socket) => {
    s.setEncoding('utf8');
    s.on('data', (chunk: string) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^[+-]/.test(line)) waiting.shift()?.(line);
      }
    });
  };
  const reply = () =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('POP3: no answer')), 10_000);
      waiting.push((line) => (clearTimeout(timer), resolve(line)));
    });
  const send = async (command: string) => {
    const next = reply();
    socket.write(`${command}\r\n`);
    return next;
  };
  listen(socket);
  try {
    await reply();
    const stls = await send('STLS');
    if (!stls.startsWith('+OK')) return { ok: false, reply: stls };
    const plain = socket;
    plain.removeAllListeners('data');
    socket = tls.connect({ socket: plain, rejectUnauthorized: false, servername: 'localhost' });
    await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
    listen(socket);
    const userReply = await send(`USER ${user}`);
    if (!userReply.startsWith('+OK')) return { ok: false, reply: userReply };
    const passReply = await send(`PASS ${pass}`);
    if (!passReply.startsWith('+OK')) return { ok: false, reply: passReply };
    const stat = await send('STAT');
    await send('QUIT');
    return { ok: true, reply: passReply, messages: Number(/^\+OK (\d+)/.exec(stat)?.[1]) };
  } finally {
    socket.destroy();
  }
}
