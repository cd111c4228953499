/** Configuration from the environment; every variable is optional (see README). */
import path from 'node:path';
import { reportsAddressOf } from './reports/address.js';
import { parseAllowedNetworks } from './imports/mail-copy/source-address.js';

/** An S3-compatible bucket for files (S3_BUCKET and the other S3_* variables). */
export interface S3Settings {
  bucket: string;
  region: string;
  /** S3_ENDPOINT: a self-hosted store's URL; none: AWS. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** S3_PATH_STYLE: the bucket in the path (most self-hosted stores); default on when S3_ENDPOINT is set. */
  pathStyle: boolean;
  /** S3_PREFIX: keys start with this (several installations in one bucket). */
  prefix: string;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  adminUsername: string;
  adminPassword?: string;
  redisUrl?: string;
  /** MAIL_SERVER_TOKEN: what the mail server's rspamd presents to read spam settings and lists and to report (deploy:config --panel-token); none: those routes answer 404. */
  mailServerToken?: string;
  dnsServers: string[];
  /** The mail server customers' MX records point at (MAIL_HOSTNAME; default: PUBLIC_URL's host). */
  mailHostname: string;
  /** REPORTS_ADDRESS: where DMARC (rua=) and TLS reports are sent (server/reports/address.ts; default reports@<mailHostname>). */
  reportsAddress: string;
  /** REPORT_MAX_BYTES: the largest report message the mail server may hand over (compressed, as sent). */
  reportMaxBytes: number;
  /** How often the DNS watch looks at each active domain's records (DNS_WATCH_HOURS). */
  dnsWatchHours: number;
  // Mail-client settings: ports mail programs use on MAIL_HOSTNAME; 0 = not offered.
  mailImapPort: number;
  mailSubmissionPort: number;
  mailSubmissionsPort: number;
  bodyLimitBytes: number;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  /** API_KEY_RATE_LIMIT: calls one API key may make per minute (0: no limit), counted across instances with REDIS_URL. */
  apiKeyRateLimit: number;
  /** Serve the built web app from dist/web when it exists. */
  webRoot?: string;
  trustProxy: boolean;
  // Shop
  /** SHOP_CURRENCY: ISO 4217 code; prices and points are integers in its minor unit. */
  shopCurrency: string;
  /** ORDER_PAYMENT_MINUTES: an unpaid order expires after this long. */
  orderPaymentMinutes: number;
  /** Stripe Checkout; without a secret key the card option is not offered. */
  stripe?: { secretKey: string; webhookSecret: string; host?: string; port?: number; protocol?: 'http' | 'https' };
  /** Finished send-log entries are removed after this many days (MAIL_LOG_RETENTION_DAYS). */
  mailLogRetentionDays: number;
  /** How often an idle job worker looks for due work (JOB_POLL_MS). */
  jobPollMs: number;
  /** Items an import makes per transaction (IMPORT_BATCH_SIZE, default 250): how much a crash may make it redo. */
  importBatchSize: number;
  /** Whether this instance starts scheduled tasks (JOB_SCHEDULES=0 turns them off; tests run them by hand). */
  jobSchedules: boolean;
  // Storage
  /** Days before a block's expiry on which its owner is reminded (STORAGE_REMINDER_DAYS, e.g. "30,7,1"). */
  storageReminderDays: number[];
  // Support
  /** Largest attachment, and most attachments on one message. */
  attachmentMaxBytes: number;
  attachmentMaxCount: number;
  /** Where attachments are stored (ATTACHMENT_DIR; default DATA_DIR/attachments). */
  attachmentDir: string;
  /** A ticket waiting for the customer closes itself after this many days without an answer. */
  ticketAutocloseDays: number;
  /** A customer's message reopens a closed ticket within this many days of its closing. */
  ticketReopenDays: number;
  // Deleted mailboxes
  /** The mail store, as `deploy:config --mail-dir` (MAIL_DIR): each mailbox's mail is under <mail-dir>/<domain>/<local part>. */
  mailDir: string;
  /** Days a deleted mailbox can be restored by an operator before its mail is removed (MAILBOX_DELETE_GRACE_DAYS). */
  mailboxDeleteGraceDays: number;
  /** After the grace period the mail is removed, or moved to <mail-dir>/.archive (MAILBOX_DELETE_MODE). */
  mailboxDeleteMode: 'remove' | 'archive';
  /** Days a deleted mailbox's record is kept once its mail is removed or archived, or it was restored (DELETED_MAILBOX_RETENTION_DAYS). */
  deletedMailboxRetentionDays: number;
  // Operations
  /** Files (attachments) in an S3-compatible bucket; none: in the database. */
  s3?: S3Settings;
  /** METRICS_TOKEN: /metrics answers `Authorization: Bearer <this>`; with neither it nor METRICS_ALLOW, /metrics is off (404). */
  metricsToken?: string;
  /** METRICS_ALLOW: addresses (comma-separated, exact IPs) /metrics answers without the token. */
  metricsAllow: string[];
  /**
   * Bringing the mail (server/imports/mail-copy): our Dovecot's IMAP (MAIL_COPY_IMAP, imap://host:port
   * with STARTTLS or imaps://host:port; ?verify=0 accepts a self-signed certificate) and the master
   * user the copy logs in with as each mailbox (MAIL_COPY_MASTER_USER, MAIL_COPY_MASTER_PASSWORD;
   * deploy:config --copy-master). None: mail copies are not offered.
   */
  mailCopy?: { host: string; port: number; secure: boolean; verify: boolean; masterUser: string; masterPassword: string };
  /**
   * MAIL_COPY_ALLOW_NETWORKS: ranges (comma-separated CIDR or addresses) an old server may be in
   * although they are loopback, private or link-local; none: copies reach only the internet.
   */
  mailCopyAllowNetworks: string[];
  /**
   * The lane of long jobs (mail copies), apart from the mail people wait for: how many run at once
   * (MAIL_COPY_WORKERS, default 4), and how many of them one customer's (MAIL_COPY_PER_CUSTOMER, default 2).
   */
  longJobs: { workers: number; perGroup: number };
  /** SECRET_KEY: 32 bytes (base64 or hex) that encrypt secrets the server reads back: an old server's password during a mail copy, TOTP secrets (AES-256-GCM; without it, TOTP secrets are kept in clear). */
  secretKey?: Buffer;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intOf(env.PORT, 8080);
  const host = env.HOST || '127.0.0.1';
  const mailHostname = (env.MAIL_HOSTNAME || new URL(env.PUBLIC_URL || `http://${host}`).hostname).toLowerCase();
  return {
    port,
    host,
    publicUrl: (env.PUBLIC_URL || `http://${host}:${port}`).replace(/\/$/, ''),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Maildesk <no-reply@maildesk.localhost>',
    adminUsername: env.ADMIN_USERNAME || 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    redisUrl: env.REDIS_URL || undefined,
    mailServerToken: env.MAIL_SERVER_TOKEN || undefined,
    dnsServers: (env.DNS_SERVERS || '').split(',').map((s) => s.trim()).filter(Boolean),
    mailHostname,
    reportsAddress: reportsAddressOf(env.REPORTS_ADDRESS, mailHostname),
    reportMaxBytes: intOf(env.REPORT_MAX_BYTES, 10 * 1024 * 1024),
    dnsWatchHours: Math.max(1, intOf(env.DNS_WATCH_HOURS, 6)),
    mailImapPort: intOf(env.MAIL_IMAP_PORT, 993),
    mailSubmissionPort: intOf(env.MAIL_SUBMISSION_PORT, 587),
    mailSubmissionsPort: intOf(env.MAIL_SUBMISSIONS_PORT, 0),
    bodyLimitBytes: intOf(env.BODY_LIMIT_BYTES, 1024 * 1024),
    sessionIdleMinutes: intOf(env.SESSION_IDLE_MINUTES, 12 * 60),
    sessionAbsoluteHours: intOf(env.SESSION_ABSOLUTE_HOURS, 7 * 24),
    apiKeyRateLimit: intOf(env.API_KEY_RATE_LIMIT, 600),
    webRoot: env.WEB_ROOT || undefined,
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    // Shop
    shopCurrency: (env.SHOP_CURRENCY || 'CNY').toUpperCase(),
    orderPaymentMinutes: Math.max(1, intOf(env.ORDER_PAYMENT_MINUTES, 60)),
    stripe: env.STRIPE_SECRET_KEY
      ? {
          secretKey: env.STRIPE_SECRET_KEY,
          webhookSecret: env.STRIPE_WEBHOOK_SECRET || '',
          host: env.STRIPE_API_HOST || undefined,
          port: env.STRIPE_API_PORT ? intOf(env.STRIPE_API_PORT, 443) : undefined,
          protocol: env.STRIPE_API_PROTOCOL === 'http' ? 'http' : env.STRIPE_API_PROTOCOL === 'https' ? 'https' : undefined,
        }
      : undefined,
    mailLogRetentionDays: intOf(env.MAIL_LOG_RETENTION_DAYS, 90),
    jobPollMs: intOf(env.JOB_POLL_MS, 1000),
    importBatchSize: Math.max(1, intOf(env.IMPORT_BATCH_SIZE, 250)),
    jobSchedules: env.JOB_SCHEDULES !== '0' && env.JOB_SCHEDULES !== 'false',
    // Storage
    storageReminderDays: daysListOf(env.STORAGE_REMINDER_DAYS, [30, 7, 1]),
    // Support
    attachmentMaxBytes: intOf(env.ATTACHMENT_MAX_BYTES, 1024 * 1024),
    attachmentMaxCount: intOf(env.ATTACHMENT_MAX_COUNT, 5),
    attachmentDir: path.resolve(env.ATTACHMENT_DIR || path.join(env.DATA_DIR || './data', 'attachments')),
    ticketAutocloseDays: intOf(env.TICKET_AUTOCLOSE_DAYS, 7),
    ticketReopenDays: intOf(env.TICKET_REOPEN_DAYS, 14),
    // Deleted mailboxes
    mailDir: path.resolve(env.MAIL_DIR || '/var/vmail'),
    mailboxDeleteGraceDays: intOf(env.MAILBOX_DELETE_GRACE_DAYS, 7),
    mailboxDeleteMode: deleteModeOf(env.MAILBOX_DELETE_MODE),
    deletedMailboxRetentionDays: intOf(env.DELETED_MAILBOX_RETENTION_DAYS, 90),
    // Operations
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          region: env.S3_REGION || 'us-east-1',
          endpoint: env.S3_ENDPOINT || undefined,
          accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
          pathStyle: env.S3_PATH_STYLE ? env.S3_PATH_STYLE === '1' || env.S3_PATH_STYLE === 'true' : !!env.S3_ENDPOINT,
          prefix: env.S3_PREFIX || '',
        }
      : undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsAllow: (env.METRICS_ALLOW || '').split(',').map((s) => s.trim()).filter(Boolean),
    mailCopy: mailCopyOf(env),
    mailCopyAllowNetworks: parseAllowedNetworks(env.MAIL_COPY_ALLOW_NETWORKS),
    longJobs: { workers: Math.max(1, intOf(env.MAIL_COPY_WORKERS, 4)), perGroup: Math.max(1, intOf(env.MAIL_COPY_PER_CUSTOMER, 2)) },
    secretKey: env.SECRET_KEY ? secretKeyOf(env.SECRET_KEY) : undefined,
  };
}

function mailCopyOf(env: NodeJS.ProcessEnv): Config['mailCopy'] {
  if (!env.MAIL_COPY_IMAP || !env.MAIL_COPY_MASTER_USER || !env.MAIL_COPY_MASTER_PASSWORD) return undefined;
  const url = new URL(env.MAIL_COPY_IMAP);
  if (url.protocol !== 'imap:' && url.protocol !== 'imaps:') throw new Error(`MAIL_COPY_IMAP: imap://host:port or imaps://host:port, got "${env.MAIL_COPY_IMAP}"`);
  const secure = url.protocol === 'imaps:';
  return {
    host: url.hostname,
    port: Number(url.port || (secure ? 993 : 143)),
    secure,
    verify: url.searchParams.get('verify') !== '0',
    masterUser: env.MAIL_COPY_MASTER_USER,
    masterPassword: env.MAIL_COPY_MASTER_PASSWORD,
  };
}

function secretKeyOf(text: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('SECRET_KEY: 32 bytes, written as 64 hex digits or in base64 (openssl rand -base64 32)');
  return key;
}

function intOf(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`Expected a whole number, got "${value}"`);
  return n;
}

function deleteModeOf(value: string | undefined): 'remove' | 'archive' {
  if (value === undefined || value === '' || value === 'remove') return 'remove';
  if (value === 'archive') return 'archive';
  throw new Error(`MAILBOX_DELETE_MODE: "remove" or "archive", got "${value}"`);
}

/** A comma-separated list of whole days, largest first, without repeats ("" means none). */
function daysListOf(value: string | undefined, fallback: number[]): number[] {
  if (value === undefined) return fallback;
  const days = value.split(',').map((s) => s.trim()).filter(Boolean).map((s) => intOf(s, 0));
  if (days.some((d) => d < 1 || d > 366)) throw new Error(`STORAGE_REMINDER_DAYS: days from 1 to 366, got "${value}"`);
  return [...new Set(days)].sort((a, b) => b - a);
}
