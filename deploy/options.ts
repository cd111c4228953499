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
  /** Login roles the daemons use: Postfix only reads; Dovecot reads and writes usage; OpenDKIM reads signing keys. */
  postfixRole: string;
  postfixPassword: string;
  dovecotRole: string;
  dovecotPassword: string;
  opendkimRole: string;
  opendkimPassword: string;
}

/** all: one host with everything; front: Postfix, rspamd, OpenDKIM and Dovecot proxying to the stores; store: Dovecot with LMTP and the mail. */
export const roles = ['all', 'front', 'store'] as const;
export type Role = (typeof roles)[number];

export interface InstallOptions {
  role: Role;
  /** front: the stores' addresses, which hand it what Sieve rules send (reinject). store: the front's, whose clients' addresses Dovecot is told. */
  peerNetworks: string;
  db: { kind: 'sqlite'; path: string } | ({ kind: 'postgres' } & PostgresTarget);
  out: string;
  mailDir: string;
  mailUser: string;
  hostname: string;
  smtp: Listen;
  /** Mail submission for the mailboxes' own clients (SMTP AUTH through Dovecot). */
  submission: Listen;
  /** Messages per minute one client address may submit (Postfix anvil). */
  submissionRate: number;
  imap: Listen;
  /** Dovecot POP3 (STLS before a login, as IMAP). */
  pop3: Listen;
  lmtp: Listen;
  /**
   * Postfix's loopback listener where Dovecot hands the mail its Sieve rules send (out-of-office
   * replies, forwarded copies): senders rewritten by SRS there, and only there.
   */
  reinject: Listen;
  /** postsrsd: forward (sender) and reverse (recipient) lookup tables, the SRS domain and its secret file. */
  srs: { forward: Listen; reverse: Listen; domain: string; secretFile: string };
  /** Outgoing mail to other domains goes through this host ("[host]:port", Postfix's relayhost) instead of MX lookups. */
  relayhost?: string;
  quotaStatus: Listen;
  /** OpenDKIM, the signing milter of submitted mail. */
  dkimMilter: Listen;
  /** rspamd: the spam filter, a milter on port 25 and on submission (its proxy worker), and its controller (learning, statistics). */
  rspamd: {
    milter: Listen;
    controller: Listen;
    /** Redis, where rspamd keeps its Bayes statistics and learn cache ("host:port"), and its database number. */
    redis: string;
    redisDb: number;
    /** Where rspamd fetches Maildesk's spam settings and lists (HTTP maps) and reports what it scored: the panel's URL and MAIL_SERVER_TOKEN. */
    panelUrl: string;
    panelToken: string;
    /** Seconds between rspamd's checks of the maps (a change in the panel applies within about twice this). */
    mapSeconds: number;
    /** clamd's TCP address: viruses are refused at SMTP (antivirus module); none: no virus scanning. */
    clamav?: Listen;
    /** Tests only: rspamd's state (hyperscan cache) here instead of /var/lib/rspamd. */
    dbDir?: string;
  };
  /** The reporting address (DMARC rua=, TLS-RPT): its mail is piped to the panel (templates/reports.ts); '' for none. */
  reportsAddress: string;
  /** Clients trusted to send with local senders without logging in (the panel's own mail). */
  mynetworks: string;
  postfixQueueDir: string;
  postfixDataDir: string;
  dovecotBaseDir: string;
  dovecotStateDir: string;
  /** SQLite: the group sharing the database directory (Postfix daemons keep only their primary group). */
  dbGroup: string;
  /** Log files here instead of syslog. */
  logDir?: string;
  tlsCert?: string;
  tlsKey?: string;
  /** Explicitly accepted: passwords may cross the network without TLS. */
  allowPlaintext: boolean;
  /** Tests: no delay after a failed login. */
  noAuthDelay: boolean;
  /**
   * Bringing the mail: the Dovecot master user the panel logs in with as a mailbox ("address*name")
   * to copy mail from another server into it, its password, and the networks it may log in from.
   */
  copyMaster?: { user: string; password: string; nets: string };
}

function listen(text: string, name: string, defaultHost = '0.0.0.0'): Listen {
  const match = /^(?:(.+):)?(\d+)$/.exec(text);
  if (!match) throw new Error(`--${name}: expected [host:]port, got "${text}"`);
  return { host: match[1] ?? defaultHost, port: Number(match[2]) };
}

/** Asked for --help: the caller prints the usage and exits 0. */
export class HelpRequested extends Error {}

export const usage = `Usage: npm run deploy:config -- --db sqlite:/path/maildesk.sqlite | --db postgres://host:port/database --out DIR
                             (--tls-cert FILE --tls-key FILE | --allow-plaintext) [options]
  --role all|front|store  all (default): one host with everything. Several hosts (docs/scaling.md): front, the host mail
                          programs and other servers reach (Postfix, rspamd, OpenDKIM, and Dovecot as a proxy that finds
                          each mailbox's store in the database at every login and delivery); store, a host holding its
                          share of the mailboxes (Dovecot with LMTP, IMAP and POP3 on --lmtp, --imap and --pop3, the same
                          ports as the front's; registered as a mail store in the panel)
  --peer-networks CIDRS   front: the stores' addresses (they hand it what Sieve rules send); store: the front's (whose
                          clients' addresses Dovecot is told) (default 127.0.0.0/8)
  --mail-dir DIR          where mailboxes live (default /var/vmail)
  --mail-user NAME        system user owning the mail store (default vmail)
  --hostname NAME         the mail server's name, the customers' MX (default $MAIL_HOSTNAME)
  --tls-cert FILE --tls-key FILE   certificate for IMAP (STARTTLS), SMTP and submission; logins only over TLS
  --allow-plaintext       write a configuration without TLS: passwords cross the network in clear text
  --smtp [HOST:]PORT      Postfix smtpd (default 0.0.0.0:25)
  --submission [HOST:]PORT  Postfix submission with SMTP AUTH (default 0.0.0.0:587)
  --submission-rate N     messages per minute one client address may submit (default 60)
  --imap [HOST:]PORT      Dovecot IMAP (default 0.0.0.0:143)
  --pop3 [HOST:]PORT      Dovecot POP3 (default 0.0.0.0:110)
  --lmtp [HOST:]PORT      Dovecot LMTP, Postfix delivers here (default 127.0.0.1:24)
  --reinject [HOST:]PORT  Postfix, loopback only: mail sent by mailbox rules (out-of-office, forwarding) (default 127.0.0.1:10025)
  --srs-forward [HOST:]PORT --srs-reverse [HOST:]PORT   postsrsd's lookup tables (default 127.0.0.1:10001, 127.0.0.1:10002)
  --srs-domain NAME       the domain of rewritten senders (default: --hostname); its SPF must allow this server
  --srs-secret FILE       postsrsd's secret (default /etc/postsrsd.secret, made by Debian's package)
  --relayhost [HOST]:PORT send mail for other domains through this host instead of their MX (default: none)
  --quota-status [HOST:]PORT  Dovecot's quota policy for Postfix (default 127.0.0.1:10993)
  --dkim-milter [HOST:]PORT   OpenDKIM, signing submitted mail (default 127.0.0.1:8891)
  --rspamd-milter [HOST:]PORT      rspamd's milter (proxy worker) for port 25 and submission (default 127.0.0.1:11332)
  --rspamd-controller [HOST:]PORT  rspamd's controller: learning from Junk, statistics (default 127.0.0.1:11334)
  --redis HOST:PORT       Redis for rspamd's Bayes statistics (default 127.0.0.1:6379)   --redis-db N (default 0)
  --panel-url URL         where rspamd reads spam settings and lists and reports results (default http://127.0.0.1:8080)
  --panel-token TOKEN     the panel's MAIL_SERVER_TOKEN (default: $MAIL_SERVER_TOKEN, else generated and written to rspamd/panel-token)
  --rspamd-map-seconds N  how often rspamd checks the settings and lists (default 20; a change applies within a minute)
  --clamav [HOST:]PORT    clamd: rspamd refuses infected mail at SMTP (default: no virus scanning)
  --rspamd-db-dir DIR     rspamd's state directory (default /var/lib/rspamd)
  --reports-address ADDR  where DMARC and TLS reports arrive; piped to the panel (default: $REPORTS_ADDRESS, else reports@<hostname>; "none": not received)
  --mynetworks CIDRS      clients that may use local senders without logging in (default 127.0.0.0/8)
  --postfix-queue DIR     (default /var/spool/postfix)   --postfix-data DIR (default /var/lib/postfix)
  --dovecot-run DIR       (default /run/dovecot)         --dovecot-state DIR (default /var/lib/dovecot)
  --db-group NAME         SQLite: group owning the database directory (default postfix)
  --log-dir DIR           log to files here instead of syslog (postfix.log, dovecot.log; rspamd/rspamd.log in a directory
                          of rspamd's own user, made by the generator when run as root)
  --postfix-role NAME --dovecot-role NAME --opendkim-role NAME   PostgreSQL login roles
                          (default maildesk_postfix, maildesk_dovecot, maildesk_opendkim)
  --postfix-password P --dovecot-password P --opendkim-password P  their passwords (default: generated)
  --copy-master NAME      a Dovecot master user for the panel's mail copies (MAIL_COPY_MASTER_USER); default: none
  --copy-master-password P  its password (MAIL_COPY_MASTER_PASSWORD; default: generated, written to dovecot/copy-master-password)
  --copy-master-nets CIDRS  where it may log in from: the panel's addresses (default 127.0.0.0/8)
  --no-auth-delay         tests only: no pause after a failed login
  --help                  this text`;

const flagNames = new Set(['no-auth-delay', 'help', 'allow-plaintext']);

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): InstallOptions {
  const args = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i];
    if (!key.startsWith('--')) throw new Error(`unexpected argument "${key}"\n${usage}`);
    if (flagNames.has(key.slice(2))) flags.add(key.slice(2));
    else args.set(key.slice(2), argv[++i] ?? '');
  }
  if (flags.has('help')) throw new HelpRequested(usage);
  const db = args.get('db');
  const out = args.get('out');
  if (!db || !out) throw new Error(usage);
  const secret = () => crypto.randomBytes(18).toString('base64url');
  let target: InstallOptions['db'];
  if (db.startsWith('sqlite:')) {
    target = { kind: 'sqlite', path: path.resolve(db.slice('sqlite:'.length)) };
    // OpenDKIM's SQL datasets name the file without "/" and without these characters (see templates/opendkim.ts).
    if (!/^[^:@+/?]{2,}$/.test(path.basename(target.path))) throw new Error(`--db: the SQLite file name must not contain : @ + ? (got "${path.basename(target.path)}")`);
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
      opendkimRole: args.get('opendkim-role') ?? 'maildesk_opendkim',
      opendkimPassword: args.get('opendkim-password') ?? secret(),
    };
    // OpenDKIM's data source names cannot quote these characters.
    for (const [name, value] of Object.entries({ 'opendkim-role': target.opendkimRole, 'opendkim-password': target.opendkimPassword, 'db host': target.host, 'db name': target.database })) {
      if (/[:@+/?\s]/.test(value)) throw new Error(`--${name}: must not contain : @ + / ? or spaces`);
    }
  } else {
    throw new Error(`--db: expected sqlite:/path or postgres://…, got "${db}"`);
  }
  if (args.has('srs-forward') || args.has('srs-reverse')) {
    const f = listen(args.get('srs-forward') ?? '127.0.0.1:10001', 'srs-forward', '127.0.0.1');
    const r = listen(args.get('srs-reverse') ?? '127.0.0.1:10002', 'srs-reverse', '127.0.0.1');
    if (f.host !== r.host) throw new Error('--srs-forward and --srs-reverse: postsrsd listens on one address for both');
  }
  const tlsCert = args.get('tls-cert');
  const tlsKey = args.get('tls-key');
  if (!tlsCert !== !tlsKey) throw new Error('--tls-cert and --tls-key go together');
  const allowPlaintext = flags.has('allow-plaintext');
  if (!tlsCert && !allowPlaintext) {
    throw new Error('Refusing to write a configuration that accepts passwords without TLS: give --tls-cert and --tls-key (or, knowingly, --allow-plaintext).');
  }
  const hostname = args.get('hostname') ?? env.MAIL_HOSTNAME ?? 'mail.localhost';
  const mapSeconds = Number(args.get('rspamd-map-seconds') ?? 20);
  if (!Number.isInteger(mapSeconds) || mapSeconds < 5 || mapSeconds > 3600) throw new Error('--rspamd-map-seconds: a whole number of seconds, 5 to 3600');
  const redisDb = Number(args.get('redis-db') ?? 0);
  if (!Number.isInteger(redisDb) || redisDb < 0 || redisDb > 255) throw new Error('--redis-db: a database number, 0 to 255');
  const panelUrl = (args.get('panel-url') ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
  if (!/^https?:\/\/[^/@\s]+$/.test(panelUrl)) throw new Error(`--panel-url: expected http(s)://host[:port], got "${panelUrl}"`);
  const panelToken = args.get('panel-token') ?? env.MAIL_SERVER_TOKEN ?? crypto.randomBytes(24).toString('base64url');
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(panelToken)) throw new Error('--panel-token: 16 to 128 letters, digits, - or _');
  const copyUser = args.get('copy-master');
  if (copyUser !== undefined && !/^[a-z0-9][a-z0-9._-]{0,63}$/.test(copyUser)) throw new Error('--copy-master: a name of letters, digits, ".", "_" or "-" (no "@", no "*")');
  const copyPassword = args.get('copy-master-password') ?? crypto.randomBytes(24).toString('base64url');
  if (/[\s:]/.test(copyPassword) || copyPassword.length < 16) throw new Error('--copy-master-password: at least 16 characters, no spaces or ":"');
  const copyNets = args.get('copy-master-nets') ?? '127.0.0.0/8';
  if (!/^[0-9a-f.:/]+(,\s*[0-9a-f.:/]+)*$/i.test(copyNets)) throw new Error('--copy-master-nets: comma-separated addresses or CIDR ranges');
  const reportsChoice = (args.get('reports-address') ?? env.REPORTS_ADDRESS ?? `reports@${hostname}`).trim().toLowerCase();
  const reportsAddress = reportsChoice === 'none' ? '' : reportsChoice;
  if (reportsAddress && !/^[a-z0-9._+-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(reportsAddress)) throw new Error(`--reports-address: expected an address such as reports@${hostname}, or "none"`);
  const role = (args.get('role') ?? 'all') as Role;
  if (!roles.includes(role)) throw new Error(`--role: all, front or store, not "${role}"`);
  const peerNetworks = args.get('peer-networks') ?? '127.0.0.0/8';
  if (!/^[0-9a-f.:/]+(,\s*[0-9a-f.:/]+)*$/i.test(peerNetworks)) throw new Error('--peer-networks: comma-separated addresses or CIDR ranges');
  const submissionRate = Number(args.get('submission-rate') ?? 60);
  if (!Number.isInteger(submissionRate) || submissionRate < 1) throw new Error('--submission-rate: a whole number of messages per minute, at least 1');
  return {
    role,
    peerNetworks: peerNetworks.replace(/\s+/g, ''),
    db: target,
    out: path.resolve(out),
    mailDir: path.resolve(args.get('mail-dir') ?? '/var/vmail'),
    mailUser: args.get('mail-user') ?? 'vmail',
    hostname,
    smtp: listen(args.get('smtp') ?? '25', 'smtp'),
    submission: listen(args.get('submission') ?? '587', 'submission'),
    submissionRate,
    imap: listen(args.get('imap') ?? '143', 'imap'),
    pop3: listen(args.get('pop3') ?? '110', 'pop3'),
    reinject: listen(args.get('reinject') ?? '127.0.0.1:10025', 'reinject', '127.0.0.1'),
    srs: {
      forward: listen(args.get('srs-forward') ?? '127.0.0.1:10001', 'srs-forward', '127.0.0.1'),
      reverse: listen(args.get('srs-reverse') ?? '127.0.0.1:10002', 'srs-reverse', '127.0.0.1'),
      domain: args.get('srs-domain') ?? hostname,
      secretFile: path.resolve(args.get('srs-secret') ?? '/etc/postsrsd.secret'),
    },
    relayhost: args.get('relayhost') || undefined,
    lmtp: listen(args.get('lmtp') ?? '127.0.0.1:24', 'lmtp'),
    quotaStatus: listen(args.get('quota-status') ?? '127.0.0.1:10993', 'quota-status'),
    dkimMilter: listen(args.get('dkim-milter') ?? '127.0.0.1:8891', 'dkim-milter', '127.0.0.1'),
    rspamd: {
      milter: listen(args.get('rspamd-milter') ?? '127.0.0.1:11332', 'rspamd-milter', '127.0.0.1'),
      controller: listen(args.get('rspamd-controller') ?? '127.0.0.1:11334', 'rspamd-controller', '127.0.0.1'),
      redis: args.get('redis') ?? '127.0.0.1:6379',
      redisDb,
      panelUrl,
      panelToken,
      mapSeconds,
      clamav: args.get('clamav') ? listen(args.get('clamav')!, 'clamav', '127.0.0.1') : undefined,
      dbDir: args.get('rspamd-db-dir') ? path.resolve(args.get('rspamd-db-dir')!) : undefined,
    },
    reportsAddress,
    mynetworks: args.get('mynetworks') ?? '127.0.0.0/8',
    postfixQueueDir: path.resolve(args.get('postfix-queue') ?? '/var/spool/postfix'),
    postfixDataDir: path.resolve(args.get('postfix-data') ?? '/var/lib/postfix'),
    dovecotBaseDir: path.resolve(args.get('dovecot-run') ?? '/run/dovecot'),
    dovecotStateDir: path.resolve(args.get('dovecot-state') ?? '/var/lib/dovecot'),
    dbGroup: args.get('db-group') ?? 'postfix',
    logDir: args.get('log-dir') ? path.resolve(args.get('log-dir')!) : undefined,
    tlsCert,
    tlsKey,
    allowPlaintext,
    noAuthDelay: flags.has('no-auth-delay'),
    copyMaster: copyUser ? { user: copyUser, password: copyPassword, nets: copyNets.replace(/\s+/g, '') } : undefined,
  };
}
