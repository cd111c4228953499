/**
 * The old server a customer moves from: a second, real Dovecot from Debian's package with its own
 * configuration, port, passwd-file user and Maildir in a temporary directory, TLS with its own
 * certificate (for 127.0.0.1; the panel trusts it through NODE_EXTRA_CA_CERTS, as an operator
 * would add a private CA). Seeded by writing Maildir files (flags in the names, dates as the
 * files' times), which Dovecot takes as they are: 1,000 messages in a second, not 1,000 deliveries.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface OldMessage {
  folder: string;
  messageId: string;
  subject: string;
  /** IMAP flags (\Seen, \Answered, \Flagged). */
  flags: string[];
  date: Date;
}

/** Maildir's letters for the IMAP flags, in the order Maildir wants them (alphabetical). */
const letters: Record<string, string> = { '\\Flagged': 'F', '\\Answered': 'R', '\\Seen': 'S' };

/** 1,000 messages: 400 in INBOX, 300 in Archive/2019 (a nested folder), 300 in Sent, with flags and dates of their own. */
export function oldMessages(count = 1000): OldMessage[] {
  const start = Date.UTC(2019, 0, 1, 8, 0, 0);
  return Array.from({ length: count }, (_, i) => ({
    folder: i < count * 0.4 ? 'INBOX' : i < count * 0.7 ? 'Archive/2019' : 'Sent',
    messageId: `<old-${i}@old.example>`,
    subject: `old message ${i}`,
    flags: [...(i % 3 === 0 ? ['\\Seen'] : []), ...(i % 5 === 0 ? ['\\Answered'] : []), ...(i % 7 === 0 ? ['\\Flagged'] : [])],
    date: new Date(start + i * 3_600_000),
  }));
}

function portFree(): Promise<number> {
  const server = net.createServer();
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as net.AddressInfo;
    server.close(() => resolve(port));
  }));
}

const passwdLine = (name: string) => fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${name}:`))!.split(':');

export async function startOldImapServer(user: string, password: string, messages: OldMessage[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-old-imap-'));
  fs.chmodSync(dir, 0o755);
  const port = await portFree();
  const cert = path.join(dir, 'old.pem');
  const key = path.join(dir, 'old.key');
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=old.example', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:old.example', '-keyout', key, '-out', cert]);
  const [, , uid, gid] = passwdLine('mail');
  const home = path.join(dir, 'home');
  const maildir = path.join(home, 'Maildir');
  // Maildir++: INBOX is the Maildir itself, a folder a/b is ".a.b".
  const folderDir = (folder: string) => (folder === 'INBOX' ? maildir : path.join(maildir, `.${folder.split('/').join('.')}`));
  for (const [i, m] of messages.entries()) {
    const at = folderDir(m.folder);
    if (!fs.existsSync(path.join(at, 'cur'))) for (const sub of ['cur', 'new', 'tmp']) fs.mkdirSync(path.join(at, sub), { recursive: true });
    const text = `From: Old Sender <sender@old.example>\r\nTo: ${user}\r\nSubject: ${m.subject}\r\nDate: ${m.date.toUTCString()}\r\nMessage-ID: ${m.messageId}\r\n\r\nMessage ${i}, kept on the old server since ${m.date.toISOString()}.\r\n`;
    const file = path.join(at, 'cur', `${Math.floor(m.date.getTime() / 1000)}.M${i}P1.old:2,${m.flags.map((f) => letters[f]).sort().join('')}`);
    fs.writeFileSync(file, text);
    fs.utimesSync(file, m.date, m.date);
  }
  await run('chown', ['-R', `${uid}:${gid}`, home]);
  const passwd = path.join(dir, 'passwd');
  fs.writeFileSync(passwd, `${user}:{PLAIN}${password}:${uid}:${gid}::${home}::\n`);
  const conf = path.join(dir, 'dovecot.conf');
  fs.writeFileSync(
    conf,
    `# The old server of the mail-copy tests.
protocols = imap
listen = 127.0.0.1
base_dir = ${path.join(dir, 'run')}
state_dir = ${path.join(dir, 'state')}
log_path = ${path.join(dir, 'dovecot.log')}
ssl = required
ssl_cert = <${cert}
ssl_key = <${key}
disable_plaintext_auth = yes
auth_failure_delay = 0
mail_location = maildir:~/Maildir
first_valid_uid = 1
mail_privileged_group =
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${passwd}
}
userdb {
  driver = passwd-file
  args = username_format=%u ${passwd}
}
namespace inbox {
  inbox = yes
  separator = /
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
`,
  );
  for (const sub of ['run', 'state']) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  spawn('dovecot', ['-c', conf], { stdio: 'ignore' }).unref();
  const until = Date.now() + 20_000;
  while (!(await new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  }))) {
    if (Date.now() > until) throw new Error(`the old Dovecot did not start:\n${fs.existsSync(path.join(dir, 'dovecot.log')) ? fs.readFileSync(path.join(dir, 'dovecot.log'), 'utf8') : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    /** Its certificate: what the panel is told to trust (NODE_EXTRA_CA_CERTS). */
    cert,
    user,
    password,
    log: () => (fs.existsSync(path.join(dir, 'dovecot.log')) ? fs.readFileSync(path.join(dir, 'dovecot.log'), 'utf8').split('\n').slice(-30).join('\n') : ''),
    async close() {
      await run('doveadm', ['-c', conf, 'stop']).catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type OldImapServer = Awaited<ReturnType<typeof startOldImapServer>>;
