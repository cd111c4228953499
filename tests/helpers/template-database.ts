/**
 * A test app's database, made from a template brought up to date once per version of the schema,
 * instead of by running every migration (and, on PostgreSQL, installing pg-boss's schema and its
 * queues) for each of the ~90 apps the suites start: on PostgreSQL that took 2–3 s of an app's
 * 3 s start, and about 0.4 s on SQLite.
 *
 * The template is made by the app's own code (migrateToLatest, createJobs), so a copy is exactly
 * what a first start leaves; the app then starts on it as on any up-to-date database. Its name
 * carries a digest of the migrations, the job names and pg-boss's schema version: a changed
 * migration makes a new template. Tests of migrating itself open databases of their own.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { capabilities } from '../../server/capabilities.js';
import { loadConfig } from '../../server/config.js';
import { openDatabase } from '../../server/db/index.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { createJobs } from '../../server/jobs/create.js';
import { registryOf } from '../../server/jobs/housekeeping.js';

const SQLITE_FILE = 'maildesk.sqlite';
const logToConsole = { error: (obj: unknown, msg?: string) => console.error(msg ?? '', obj) };

let digest: string | undefined;
/** What a template's contents follow from. */
function schemaDigest(): string {
  if (digest) return digest;
  const hash = crypto.createHash('sha256');
  const migrations = path.resolve('server/db/migrations');
  for (const file of fs.readdirSync(migrations).sort()) hash.update(file).update(fs.readFileSync(path.join(migrations, file)));
  const { jobs, schedules } = registryOf(capabilities);
  // The queues pg-boss is given (their names and retry settings, and how pg-boss-queue.ts makes them).
  const settings = (spec: { name: string; retryLimit?: number; retryDelaySeconds?: number; lane?: string }) => [spec.name, spec.retryLimit, spec.retryDelaySeconds, spec.lane];
  hash.update(JSON.stringify([...jobs, ...schedules].map(settings)));
  hash.update(fs.readFileSync(path.resolve('server/jobs/pg-boss-queue.ts')));
  hash.update(String(createRequire(import.meta.url)('pg-boss/version.json').schema));
  return (digest = hash.digest('hex').slice(0, 16));
}

/** Brings an empty database up to date as the app's first start would, and closes it. */
async function bringUpToDate(env: { DATA_DIR: string; DATABASE_URL?: string }) {
  const config = loadConfig({ ...env, JOB_SCHEDULES: '0', JOB_POLL_MS: '600000' });
  const database = openDatabase(config);
  try {
    await migrateToLatest(database);
    const jobs = await createJobs(database, registryOf(capabilities), config, logToConsole);
    await jobs.stop();
  } finally {
    await database.close();
  }
}

/** Puts an up-to-date SQLite database into `dataDir` (the app's file there). */
export async function sqliteFromTemplate(dataDir: string): Promise<void> {
  const template = path.join(os.tmpdir(), `maildesk-template-${schemaDigest()}.sqlite`);
  if (!fs.existsSync(template)) {
    // Made aside and renamed into place: workers making it at once each leave a whole file.
    const building = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-template-'));
    await bringUpToDate({ DATA_DIR: building });
    fs.renameSync(path.join(building, SQLITE_FILE), template);
    fs.rmSync(building, { recursive: true, force: true });
  }
  fs.mkdirSync(dataDir, { recursive: true });
  fs.copyFileSync(template, path.join(dataDir, SQLITE_FILE));
}

/** The name of an up-to-date template database on the server, made under a lock the first time. */
export async function postgresTemplate(serverUrl: string): Promise<string> {
  const name = `maildesk_template_${schemaDigest()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) {
      const building = `${name}_${crypto.randomBytes(4).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${building}`);
      const url = new URL(serverUrl);
      url.pathname = `/${building}`;
      await bringUpToDate({ DATA_DIR: os.tmpdir(), DATABASE_URL: url.toString() });
      // Renamed once nobody is connected to it: a copy can only be made of a database nobody uses.
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      // Templates of earlier schemas are of no more use.
      const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where datname like 'maildesk\\_template\\_%' and datname <> $1`, [name]);
      for (const old of rows) await admin.query(`DROP DATABASE IF EXISTS ${old.datname}`).catch(() => undefined);
    }
    return name;
  } finally {
    await admin.end();
  }
}
