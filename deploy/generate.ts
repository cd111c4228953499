/**
 * `npm run deploy:config -- --db … --out DIR [options]`: writes the Postfix and Dovecot
 * configuration of one installation (and, for PostgreSQL, the roles to create). See
 * deploy/README.md for how a Debian mail server uses it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseOptions, type InstallOptions } from './options.js';
import { dovecotFiles } from './templates/dovecot.js';
import { mainCf, mapFile, mapNames, masterCf, postfixDir, type MapKey } from './templates/postfix.js';
import { rolesSql } from './templates/postgres.js';

/** File path → content, for every file of the installation. */
export function installationFiles(o: InstallOptions): Record<string, string> {
  const files: Record<string, string> = {
    [path.join(postfixDir(o), 'main.cf')]: mainCf(o),
    [path.join(postfixDir(o), 'master.cf')]: masterCf(o),
    ...dovecotFiles(o),
  };
  for (const key of Object.keys(mapNames) as MapKey[]) files[path.join(postfixDir(o), `maildesk-${mapNames[key]}.cf`)] = mapFile(o, key);
  if (o.db.kind === 'postgres') files[path.join(o.out, 'postgres-roles.sql')] = rolesSql(o.db);
  return files;
}

/** Files holding database passwords are readable by root and the daemon's group only. */
const secretGroups: Record<string, string> = { postfix: 'postfix', dovecot: 'dovecot' };

export function writeInstallation(o: InstallOptions) {
  for (const [file, content] of Object.entries(installationFiles(o))) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content, { mode: 0o640 });
    fs.chmodSync(file, 0o640);
    const group = secretGroups[path.basename(path.dirname(file))];
    if (group && process.getuid?.() === 0) chownToGroup(file, group);
  }
}

function chownToGroup(file: string, group: string) {
  const line = fs.readFileSync('/etc/group', 'utf8').split('\n').find((l) => l.startsWith(`${group}:`));
  if (line) fs.chownSync(file, 0, Number(line.split(':')[2]));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const options = parseOptions(process.argv.slice(2));
    writeInstallation(options);
    console.log(`Wrote the Postfix and Dovecot configuration for ${options.db.kind === 'sqlite' ? options.db.path : `PostgreSQL ${options.db.database}`} to ${options.out}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  }
}
