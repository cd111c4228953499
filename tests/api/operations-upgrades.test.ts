/**
 * Upgrades: databases made by earlier releases (tests/fixtures/releases, made by make.sh with
 * those commits' own code) are migrated forward by this release's start-up and keep what they
 * held; a database newer than this code is refused, with a clear message and a non-zero exit.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseNewerThanCode } from '../../server/db/migrate.js';
import { loadSqlDump, startOn } from '../helpers/installation.js';
import { freshPostgresDatabase } from '../helpers/postgres.js';

const releases = path.resolve('tests/fixtures/releases');
const fixtures = fs.readdirSync(releases).filter((name) => fs.existsSync(path.join(releases, name, 'seeded.json'))).sort();
const postgresServer = process.env.DATABASE_URL;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A copy of a fixture as an installation of its own: a data directory, and on PostgreSQL a database loaded from its dump. */
async function installationOf(fixture: string): Promise<Record<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-upgrade-'));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const from = path.join(releases, fixture);
  if (!postgresServer) {
    fs.cpSync(path.join(from, 'data'), dataDir, { recursive: true });
    return { DATA_DIR: dataDir };
  }
  const database = await freshPostgresDatabase(postgresServer);
  cleanups.push(database.drop);
  loadSqlDump(database.url, path.join(from, 'postgres.sql'));
  fs.cpSync(path.join(from, 'pg-attachments'), path.join(dataDir, 'attachments'), { recursive: true });
  return { DATA_DIR: dataDir, DATABASE_URL: database.url };
}

it('There are fixtures of several earlier releases', () => {
  expect(fixtures.length).toBeGreaterThanOrEqual(3);
});

describe.each(fixtures)('A database made by the release with migrations up to %s', (fixture) => {
  it('When this release starts on it, then it is migrated forward and everything it held is there, its attachment moved into the file store', async () => {
    const seeded = JSON.parse(fs.readFileSync(path.join(releases, fixture, 'seeded.json'), 'utf8'));
    const env = await installationOf(fixture);
    const app = await startOn(env);
    cleanups.push(app.close);
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(app.services.db);
    expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining([...seeded.migrations, '0023_stored_files']));

    const signedIn = await app.signIn(seeded.operator.username, seeded.operator.password);
    expect(signedIn).toMatchObject({ code: 0 });
    const token = signedIn.data.token;
    const customers = await app.post('/api/manage/user/list', { search: seeded.customer.email }, token);
    expect(customers.data.list.map((c: { email: string }) => c.email)).toEqual([seeded.customer.email]);
    const products = await app.post('/api/manage/product/list', {}, token);
    expect(products.data.list.map((p: { name_en: string }) => p.name_en)).toContain(seeded.product);
    expect(await app.post('/api/admin/login/login', { email: seeded.customer.email, password: seeded.customer.password })).toMatchObject({ code: 0 });

    // The earlier release kept the file on its disk: the start-up's job moves it into the file store.
    const attachment = await app.services.db.selectFrom('ticket_attachment').select(['id', 'stored_name']).executeTakeFirstOrThrow();
    await app.services.jobs.drain();
    expect(fs.readdirSync(path.join(env.DATA_DIR, 'attachments'))).toEqual([]);
    expect(await app.services.files.has(attachment.stored_name)).toBe(true);
    const download = await app.get('/api/manage/ticket/attachment', { id: String(attachment.id) }, token);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe(seeded.ticket.text);
  });
});

describe('A database newer than this code', () => {
  async function newerInstallation() {
    const env = await installationOf(fixtures.at(-1)!);
    const app = await startOn(env);
    await app.services.db.insertInto('kysely_migration' as never).values({ name: '0999_from_the_future', timestamp: new Date().toISOString() } as never).execute();
    await app.close();
    return env;
  }

  it('When the app starts on it, then it refuses, naming the migrations it does not know, and changes nothing', async () => {
    const env = await newerInstallation();
    const refused = await startOn(env).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DatabaseNewerThanCode);
    expect((refused as Error).message).toContain('0999_from_the_future');
  });

  // The start-up refuses the same way on both databases (above); the process is tried on SQLite only, to keep the suite short.
  it('When npm start runs on it, then it prints why and exits non-zero', { timeout: 120_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-newer-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    fs.cpSync(path.join(releases, fixtures.at(-1)!, 'data'), dataDir, { recursive: true });
    const sqlite = new SQLite(path.join(dataDir, 'maildesk.sqlite'));
    sqlite.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run('0999_from_the_future', new Date().toISOString());
    sqlite.close();
    const env = { DATA_DIR: dataDir };
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, DATABASE_URL: '', ...env, PORT: '0', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(status).toBe(1);
    expect(output).toContain('Maildesk did not start: This database was upgraded by a newer Maildesk');
    expect(output).toContain('0999_from_the_future');
  });
});
