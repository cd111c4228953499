/**
 * `npm run deploy:config -- --db … --out DIR (--tls-cert … --tls-key … | --allow-plaintext) [options]`:
 * writes the Postfix (with the reports pipe), Dovecot, OpenDKIM, rspamd and postsrsd configuration of one installation (and, for
 * PostgreSQL, the roles to create). Compiled with the server (`npm run build`), so it runs on a
 * production install without dev dependencies. See deploy/README.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HelpRequested, parseOptions, type InstallOptions } from './options.js';
import { dovecotDir, dovecotFiles } from './templates/dovecot.js';
import { opendkimDir, opendkimFiles } from './templates/opendkim.js';
import { mainCf, mapFile, mapNames, mapsOf, masterCf, postfixDir, srsRecipients, srsRecipientsFile } from './templates/postfix.js';
import { postsrsdFiles } from './templates/postsrsd.js';
import { reportsDir, reportsFiles } from './templates/reports.js';
import { RSPAMD_USER, rspamdDir, rspamdFiles, rspamdLogFile } from './templates/rspamd.js';
import { rolesSql } from './templates/postgres.js';

/** File path → content, for every file of the installation (a store: Dovecot's alone). */
export function installationFiles(o: InstallOptions): Record<string, string> {
  if (o.role === 'store') return dovecotFiles(o);
  const files: Record<string, string> = {
    [path.join(postfixDir(o), 'main.cf')]: mainCf(o),
    [path.join(postfixDir(o), 'master.cf')]: masterCf(o),
    ...dovecotFiles(o),
    [srsRecipientsFile(o)]: srsRecipients(),
    ...opendkimFiles(o),
    ...postsrsdFiles(o),
    ...rspamdFiles(o),
    ...reportsFiles(o),
    // The panel's MAIL_SERVER_TOKEN, which rspamd presents when it reads the maps and reports.
    [path.join(rspamdDir(o), 'panel-token')]: `${o.rspamd.panelToken}\n`,
  };
  for (const key of mapsOf(o)) files[path.join(postfixDir(o), `maildesk-${mapNames[key]}.cf`)] = mapFile(o, key);
  if (o.db.kind === 'postgres') files[path.join(o.out, 'postgres-roles.sql')] = rolesSql(o.db);
  return files;
}

/**
 * Who may read each file. Files with database credentials (or the SQLite path, which leads to
 * every password hash) are root's and the daemon's group only; main.cf, master.cf and
 * dovecot.conf stay world-readable, or postconf, sendmail, mailq and doveadm fail for other users.
 */
export function fileMode(o: InstallOptions, file: string): { mode: number; group?: string } {
  const name = path.basename(file);
  if (name === 'main.cf' || name === 'master.cf' || name === 'dovecot.conf' || name.endsWith('.service')) return { mode: 0o644 };
  if (name === 'postgres-roles.sql') return { mode: 0o600 };
  if (path.basename(path.dirname(file)) === 'postsrsd') return { mode: 0o644 };
  const dir = path.dirname(file);
  // Run and read by the mail user's IMAP processes (learning from Junk); no secrets in them.
  if (dir === path.join(dovecotDir(o), 'sieve-pipe')) return { mode: 0o755 };
  if (name.endsWith('.sieve')) return { mode: 0o644 };
  if (name === 'panel-token' || name === 'copy-master-password') return { mode: 0o600 };
  // Run by Postfix's pipe as the mail store's user; it holds the panel's token.
  if (dir === reportsDir(o)) return { mode: 0o750, group: o.mailUser };
  if (dir === rspamdDir(o) || path.dirname(dir) === rspamdDir(o)) return { mode: 0o640, group: '_rspamd' };
  if (dir === postfixDir(o)) return { mode: 0o640, group: 'postfix' };
  if (dir === dovecotDir(o)) return { mode: 0o640, group: 'dovecot' };
  if (dir === opendkimDir(o)) return { mode: 0o640, group: 'opendkim' };
  return { mode: 0o600 };
}

export function writeInstallation(o: InstallOptions) {
  const root = process.getuid?.() === 0;
  for (const [file, content] of Object.entries(installationFiles(o))) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
    const { mode, group } = fileMode(o, file);
    fs.writeFileSync(file, content, { mode });
    fs.chmodSync(file, mode);
    if (group && root) chownToGroup(file, group);
  }
  // Postfix does not make its queue directory itself (its subdirectories it does, at start).
  if (root && o.role !== 'store' && !fs.existsSync(o.postfixQueueDir)) fs.mkdirSync(o.postfixQueueDir, { recursive: true, mode: 0o755 });
  if (root) makeLogDirs(o);
}

/**
 * --log-dir: Postfix's postlogd and Dovecot's master write there as root; rspamd runs as its own
 * user from the start (Debian's unit), so without a directory it may write in it cannot open its
 * log and exits, and Postfix then answers every message "try again later".
 */
function makeLogDirs(o: InstallOptions) {
  const logFile = rspamdLogFile(o);
  if (!o.logDir) return;
  fs.mkdirSync(o.logDir, { recursive: true, mode: 0o755 });
  // A store runs Dovecot alone.
  if (!logFile || o.role === 'store') return;
  const dir = path.dirname(logFile);
  fs.mkdirSync(dir, { recursive: true, mode: 0o750 });
  fs.chmodSync(dir, 0o750);
  fs.chownSync(dir, idOf('/etc/passwd', RSPAMD_USER), idOf('/etc/group', RSPAMD_USER));
}

/** A user's or group's numeric id, from /etc/passwd or /etc/group. */
function idOf(file: string, name: string) {
  const line = fs.readFileSync(file, 'utf8').split('\n').find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`no ${file === '/etc/passwd' ? 'user' : 'group'} "${name}": install the mail packages first (deploy/install-mail-packages.sh)`);
  return Number(line.split(':')[2]);
}

function chownToGroup(file: string, group: string) {
  fs.chownSync(file, 0, idOf('/etc/group', group));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const options = parseOptions(process.argv.slice(2));
    writeInstallation(options);
    const what = options.role === 'store' ? 'the Dovecot configuration of a mail store' : `the Postfix, Dovecot${options.role === 'front' ? ' (proxy)' : ''}, OpenDKIM, rspamd and postsrsd configuration${options.role === 'front' ? ' of a front host' : ''}`;
    console.log(`Wrote ${what} for ${options.db.kind === 'sqlite' ? options.db.path : `PostgreSQL ${options.db.database}`} to ${options.out}`);
  } catch (error) {
    if (error instanceof HelpRequested) {
      console.log(error.message);
      process.exit(0);
    }
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  }
}
