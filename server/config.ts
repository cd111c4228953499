/** Configuration from the environment; every variable is optional (see README). */
import path from 'node:path';

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
  dnsServers: string[];
  /** The mail server customers' MX records point at (MAIL_HOSTNAME; default: PUBLIC_URL's host). */
  mailHostname: string;
  bodyLimitBytes: number;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  /** Serve the built web app from dist/web when it exists. */
  webRoot?: string;
  trustProxy: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intOf(env.PORT, 8080);
  const host = env.HOST || '127.0.0.1';
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
    dnsServers: (env.DNS_SERVERS || '').split(',').map((s) => s.trim()).filter(Boolean),
    mailHostname: (env.MAIL_HOSTNAME || new URL(env.PUBLIC_URL || `http://${host}`).hostname).toLowerCase(),
    bodyLimitBytes: intOf(env.BODY_LIMIT_BYTES, 1024 * 1024),
    sessionIdleMinutes: intOf(env.SESSION_IDLE_MINUTES, 12 * 60),
    sessionAbsoluteHours: intOf(env.SESSION_ABSOLUTE_HOURS, 7 * 24),
    webRoot: env.WEB_ROOT || undefined,
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
  };
}

function intOf(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`Expected a whole number, got "${value}"`);
  return n;
}
