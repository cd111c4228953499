/** What a Maildesk mail server installation is: its database, mail store, names, ports and paths. */
import crypto from 'node:crypto';
import path from 'node:path';

export interface Listen {
  host: string;
  port: number;
}

export interface PostgresTarget {
  host: string;
  port: number;
  database: string;
  /** Login roles the daemons use: Postfix only reads; Dovecot reads and writes usage. */
  postfixRole: string;
  postfixPassword: string;
  dovecotRole: string;
  dovecotPassword: string;
}

export interface InstallOptions {
  db: { kind: 'sqlite'; path: string } | ({ kind: 'postgres' } & PostgresTarget);
  out: string;
  mailDir: string;
  mailUser: string;
  hostname: string;
  smtp: Listen;
  /** Mail submission for the mailboxes' own clients (SMTP AUTH through Dovecot). */
  submission: Listen;
  /** Dovecot's authentication service for Postfix's SMTP AUTH. */
  saslAuth: Listen;
  imap: Listen;
  lmtp: Listen;
  quotaStatus: Listen;
  postfixQueueDir: string;
  postfixDataDir: string;
  dovecotBaseDir: string;
  dovecotStateDir: string;
  /** Log files here instead of syslog. */
  logDir?: string;
  tlsCert?: string;
  tlsKey?: string;
  /** Tests: no delay after a failed login. */
  noAuthDelay: boolean;
}

function listen(text: string, name: string): Listen {
  const match = /^(?:(.+):)?(\d+)$/.exec(text);
  if (!match) throw new Error(`--${name}: expected [host:]port, got "${text}"`);
  return { host: match[1] ?? '0.0.0.0', port: Number(match[2]) };
}

const usage = `Usage: npm run deploy:config -- --db sqlite:/path/maildesk.sqlite | --db postgres://host:port/database --out DIR [options]
  --mail-dir DIR          where mailboxes live (default /var/vmail)
  --mail-user NAME        system user owning the mail store (default vmail)
  --hostname NAME         the mail server's name, the customers' MX (default $MAIL_HOSTNAME)
  --smtp [HOST:]PORT      Postfix smtpd (default 0.0.0.0:25)
  --submission [HOST:]PORT  Postfix submission with SMTP AUTH (default 0.0.0.0:587)
  --sasl-auth [HOST:]PORT Dovecot's auth service for Postfix (default 127.0.0.1:12345)
  --imap [HOST:]PORT      Dovecot IMAP (default 0.0.0.0:143)
  --lmtp [HOST:]PORT      Dovecot LMTP, Postfix delivers here (default 127.0.0.1:24)
  --quota-status [HOST:]PORT  Dovecot's quota policy for Postfix (default 127.0.0.1:10993)
  --postfix-queue DIR     (default /var/spool/postfix)   --postfix-data DIR (default /var/lib/postfix)
  --dovecot-run DIR       (default /run/dovecot)         --dovecot-state DIR (default /var/lib/dovecot)
  --log-dir DIR           log to files here instead of syslog
  --tls-cert FILE --tls-key FILE   IMAP over TLS (required for plain-text logins from outside)
  --postfix-role NAME --dovecot-role NAME   PostgreSQL login roles (default maildesk_postfix, maildesk_dovecot)
  --postfix-password P --dovecot-password P  their passwords (default: generated)
  --no-auth-delay         tests only: no pause after a failed login`;

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): InstallOptions {
  const args = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i];
    if (!key.startsWith('--')) throw new Error(`unexpected argument "${key}"\n${usage}`);
    if (key === '--no-auth-delay' || key === '--help') flags.add(key.slice(2));
    else args.set(key.slice(2), argv[++i] ?? '');
  }
  if (flags.has('help')) throw new Error(usage);
  const db = args.get('db');
  const out = args.get('out');
  if (!db || !out) throw new Error(usage);
  const secret = () => crypto.randomBytes(18).toString('base64url');
  let target: InstallOptions['db'];
  if (db.startsWith('sqlite:')) {
    target = { kind: 'sqlite', path: path.resolve(db.slice('sqlite:'.length)) };
  } else if (/^postgres(ql)?:\/\//.test(db)) {
    const url = new URL(db);
    target = {
      kind: 'postgres',
      host: url.hostname || '127.0.0.1',
      port: Number(url.port || 5432),
      database: decodeURIComponent(url.pathname.slice(1)) || 'maildesk',
      postfixRole: args.get('postfix-role') ?? 'maildesk_postfix',
      postfixPassword: args.get('postfix-password') ?? secret(),
      dovecotRole: args.get('dovecot-role') ?? 'maildesk_dovecot',
      dovecotPassword: args.get('dovecot-password') ?? secret(),
    };
  } else {
    throw new Error(`--db: expected sqlite:/path or postgres://…, got "${db}"`);
  }
  const tlsCert = args.get('tls-cert');
  const tlsKey = args.get('tls-key');
  if (!tlsCert !== !tlsKey) throw new Error('--tls-cert and --tls-key go together');
  return {
    db: target,
    out: path.resolve(out),
    mailDir: path.resolve(args.get('mail-dir') ?? '/var/vmail'),
    mailUser: args.get('mail-user') ?? 'vmail',
    hostname: args.get('hostname') ?? env.MAIL_HOSTNAME ?? 'mail.localhost',
    smtp: listen(args.get('smtp') ?? '25', 'smtp'),
    submission: listen(args.get('submission') ?? '587', 'submission'),
    saslAuth: listen(args.get('sasl-auth') ?? '127.0.0.1:12345', 'sasl-auth'),
    imap: listen(args.get('imap') ?? '143', 'imap'),
    lmtp: listen(args.get('lmtp') ?? '127.0.0.1:24', 'lmtp'),
    quotaStatus: listen(args.get('quota-status') ?? '127.0.0.1:10993', 'quota-status'),
    postfixQueueDir: path.resolve(args.get('postfix-queue') ?? '/var/spool/postfix'),
    postfixDataDir: path.resolve(args.get('postfix-data') ?? '/var/lib/postfix'),
    dovecotBaseDir: path.resolve(args.get('dovecot-run') ?? '/run/dovecot'),
    dovecotStateDir: path.resolve(args.get('dovecot-state') ?? '/var/lib/dovecot'),
    logDir: args.get('log-dir') ? path.resolve(args.get('log-dir')!) : undefined,
    tlsCert,
    tlsKey,
    noAuthDelay: flags.has('no-auth-delay'),
  };
}
