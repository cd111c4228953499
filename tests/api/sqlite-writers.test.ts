/**
 * SQLite shared with Dovecot, which writes quota usage into the same file (mailbox_usage, through
 * its dict) while the panel works. A panel transaction that read before Dovecot's write must still
 * commit: it holds the write lock from its start (BEGIN IMMEDIATE), so Dovecot waits for it (its own
 * busy timeout), instead of the panel's write failing with SQLITE_BUSY (a 50000 seen under load in
 * the mail suite: "When a pending domain is verified, or a suspension is lifted").
 */
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, '');
});
afterAll(() => t.close());

it('When Dovecot writes quota usage during a panel transaction that has already read, then the transaction commits and Dovecot waits for it', async () => {
  const dovecot = new SQLite(t.services.database.sqlitePath!);
  dovecot.pragma('busy_timeout = 0');
  const write = (bytes: number) => dovecot.prepare('insert into mailbox_usage (address, bytes, messages) values (?, ?, 0) on conflict (address) do update set bytes = excluded.bytes').run('usage@writers.example', bytes);
  let dovecotRefused = false;
  try {
    await t.services.db.transaction().execute(async (trx) => {
      await trx.selectFrom('domain').select('id').execute();
      try {
        write(1);
      } catch (error) {
        dovecotRefused = /SQLITE_BUSY|locked/i.test(String((error as Error).message));
      }
      await trx.insertInto('mailbox_usage').values({ address: 'panel@writers.example', bytes: 2, messages: 0 }).execute();
    });
    // The panel's write committed; Dovecot, told the file is busy, writes once it is free.
    expect(dovecotRefused).toBe(true);
    write(3);
    const rows = dovecot.prepare('select address, bytes from mailbox_usage where address like ? order by address').all('%@writers.example');
    expect(rows).toEqual([
      { address: 'panel@writers.example', bytes: 2 },
      { address: 'usage@writers.example', bytes: 3 },
    ]);
  } finally {
    dovecot.close();
  }
});
