/**
 * The restore drill: `maildesk backup` while the panel serves and writes continue, `maildesk
 * restore` onto a new, empty installation, and the restored panel starts, its operator signs in,
 * and every record committed before the backup began is there (and none is half there).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ROOT, startTestApp, type TestApp } from '../helpers/app.js';
import { maildeskCommand, startOn } from '../helpers/installation.js';
import { freshPostgresDatabase } from '../helpers/postgres.js';

const postgresServer = process.env.DATABASE_URL;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'maildesk-backup-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  fs.rmSync(work, { recursive: true, force: true });
});

/** The environment `maildesk` is run with for the app `t` (what its npm start would read). */
const envOf = (t: TestApp) => ({ DATA_DIR: t.config.dataDir, DATABASE_URL: t.config.databaseUrl ?? '' });

/** A new, empty installation: an empty data directory, and on PostgreSQL a new empty database. */
async function emptyInstallation() {
  const dataDir = fs.mkdtempSync(path.join(work, 'restored-'));
  if (!postgresServer) return { DATA_DIR: dataDir, DATABASE_URL: '' };
  const database = await freshPostgresDatabase(postgresServer);
  cleanups.push(database.drop);
  return { DATA_DIR: dataDir, DATABASE_URL: database.url };
}

it('When a backup is taken while the panel writes, then it restores onto an empty installation where the operator signs in and every committed record is there', async () => {
  const t = await startTestApp();
  cleanups.push(t.close);
  const root = (await t.post('/api/manage/login/login', ROOT)).data.token;
  let n = 0;
  const committed: { id: number; name: string; at: number }[] = [];
  const addProduct = async () => {
    const name = `Drill product ${++n}`;
    const reply = await t.post('/api/manage/product/create', { kind: 'points', name_zh: name, name_en: name, price: 100 + n, points_granted: 100 }, { token: root });
    expect(reply, JSON.stringify(reply)).toMatchObject({ code: 0 });
    committed.push({ id: reply.data.id, name, at: Date.now() });
  };
  for (let i = 0; i < 20; i++) await addProduct();

  // Writes go on, one after another, for as long as the backup runs.
  let writing = true;
  const writer = (async () => {
    while (writing) await addProduct();
  })();
  const file = path.join(work, 'maildesk.backup');
  const started = Date.now();
  const backup = await maildeskCommand(['backup', file], envOf(t));
  writing = false;
  await writer;
  expect(backup).toMatchObject({ status: 0 });
  expect(backup.out).toContain(`written to ${file}`);
  expect(committed.filter((c) => c.at > started).length).toBeGreaterThan(0);

  const target = await emptyInstallation();
  const restored = await maildeskCommand(['restore', file], target);
  expect(restored).toMatchObject({ status: 0 });
  expect(restored.out).toContain(`Restored ${file}`);

  const app = await startOn(target);
  cleanups.push(app.close);
  const signedIn = await app.signIn(ROOT.username, ROOT.password);
  expect(signedIn).toMatchObject({ code: 0 });
  const names = (await app.services.db.selectFrom('product').select('name_en').orderBy('id').execute()).map((p) => p.name_en);
  expect((await app.post('/api/manage/product/list', {}, signedIn.data.token)).data.total).toBe(names.length);
  // Everything committed before the backup began; of what came during it, a prefix (a consistent copy: no gap).
  const before = committed.filter((c) => c.at < started).map((c) => c.name);
  expect(names).toEqual(expect.arrayContaining(before));
  expect(names).toEqual(committed.slice(0, names.length).map((c) => c.name));

  // A second restore onto the now-used installation is refused, and changes nothing.
  const again = await maildeskCommand(['restore', file], target);
  expect(again.status).toBe(1);
  expect(again.err).toMatch(postgresServer ? /Not restored: The database DATABASE_URL names is not empty/ : /Not restored: .* already has a database/);
  expect((await app.post('/api/manage/product/list', {}, signedIn.data.token)).data.total).toBe(names.length);
});

it('When the backup file exists already, or the restore file is no backup, then nothing is written', async () => {
  const file = path.join(work, 'taken');
  fs.writeFileSync(file, 'not a backup');
  expect(await maildeskCommand(['backup', file], { DATA_DIR: work })).toMatchObject({ status: 1, err: `${file} exists already: name a new file.` });
  const target = await emptyInstallation();
  const refused = await maildeskCommand(['restore', file], target);
  expect(refused.status).toBe(1);
  expect(refused.err).toContain('is not a Maildesk backup');
  // In Chinese, the reason too.
  const refusedZh = await maildeskCommand(['restore', file], { ...target, LANG: 'zh_CN.UTF-8' });
  expect(refusedZh).toMatchObject({ status: 1, err: `未恢复：${file} 不是 Maildesk 备份（既不是 SQLite 数据库，也不是 pg_dump 自定义格式的归档）。` });
  expect(fs.readdirSync(target.DATA_DIR)).toEqual([]);
});
