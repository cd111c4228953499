/**
 * The PostfixAdmin source's connection string (superadmin only): only what an import needs is
 * taken from it (scheme, user, password, host, port, database, sslmode, table_prefix); a unix
 * socket, a file of the panel's machine or any other driver option is refused in our words, and
 * what goes wrong while connecting is told in a few translated messages, never the driver's text.
 * Against real MariaDB and PostgreSQL servers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageText } from '../../resources/messages.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { closedPort, operatorLogin } from '../helpers/fixtures.js';
import { freshPostfixAdmin, type SourceKind } from '../helpers/postfixadmin.js';

const servers = { mariadb: 'mysql://root@127.0.0.1:3306', postgres: 'postgres://postgres@127.0.0.1:5432' };

let t: TestApp;
let root: string;
beforeAll(async () => {
  t = await startTestApp();
  root = await operatorLogin(t);
});
afterAll(() => t.close());


describe.each(['mariadb', 'postgres'] as SourceKind[])('The PostfixAdmin source on %s', (kind) => {
  let source: Awaited<ReturnType<typeof freshPostfixAdmin>>;
  beforeAll(async () => {
    source = await freshPostfixAdmin(kind);
    await source.fill({ domains: [{ domain: 'kept.example' }], mailboxes: [], aliases: [] });
  });
  afterAll(() => source?.drop());

  const inspect = (url: string) => t.post('/api/manage/imports/postfixadmin/inspect', { source: url }, { token: root });

  it('When the connection string names a unix socket, a file or another driver option, then a translated 40000 names the option, and a file that exists answers as one that does not', async () => {
    const sockets = kind === 'mariadb' ? ['/run/mysqld/mysqld.sock', '/var/run/mysqld/mysqld.sock'] : ['/var/run/postgresql', '/run/postgresql'];
    const tries: [string, string][] = [
      [`${source.url}?socketPath=${sockets[0]}`, 'socketPath'],
      [`${source.url}?host=${sockets[1]}`, 'host'],
      [`${source.url}?sslrootcert=/etc/passwd`, 'sslrootcert'],
      [`${source.url}?sslcert=/etc/hostname&sslkey=/etc/hostname`, 'sslcert'],
      [`${source.url}?options=-c%20statement_timeout%3D1`, 'options'],
      [`${source.url}?table_prefix=&socketPath=${sockets[0]}`, 'socketPath'],
      [`${source.url}?sslmode=verify-ca`, 'sslmode=verify-ca'],
      [`${source.url}?sslmode=disable&sslmode=require`, 'sslmode'],
    ];
    for (const [url, option] of tries) {
      const reply = await inspect(url);
      expect(reply, url).toMatchObject({ status: 400, code: 40000, message: 'error.import_source_option', params: { option } });
      expect(reply.errors?.source, url).toMatchObject({ message: 'error.import_source_option' });
    }
    // Whether the panel's machine has a file is not told.
    const present = await inspect(`${source.url}?sslrootcert=/etc/passwd`);
    const absent = await inspect(`${source.url}?sslrootcert=/no/such/file`);
    expect(absent).toEqual(present);
    // A socket's path where the host goes.
    for (const url of [`${kind === 'mariadb' ? 'mysql' : 'postgres'}://u:p@/${'pfa'}?x=1`, `${kind === 'mariadb' ? 'mysql' : 'postgres'}://u:p@%2Fvar%2Frun%2Fsock/pfa`, `${source.url.replace(/\/[^/]*$/, '/')}`]) {
      expect(await inspect(url), url).toMatchObject({ status: 400, code: 40000, message: 'error.import_source_invalid' });
    }
    expect(messageText('en', 'error.import_source_option', { option: 'socketPath' })).toContain('not "socketPath"');
    expect(messageText('zh', 'error.import_source_option', { option: 'socketPath' })).toContain('“socketPath”');
    // What an import needs still reads: table_prefix and sslmode=disable.
    expect((await inspect(`${source.url}?table_prefix=&sslmode=disable`)).data?.domains).toEqual([expect.objectContaining({ name: 'kept.example' })]);
  });

  it('When the password is wrong, the database is not there or the server is not reached, then each is said in our words, without the driver\'s', async () => {
    // MariaDB checks the password; this PostgreSQL trusts local connections, so a user it does not know.
    const wrong = await inspect(kind === 'mariadb' ? source.url.replace('pfa-read-only', 'wrong-password') : source.url.replace(/\/\/[^:]+:pfa-read-only@/, '//no_such_user_here:wrong-password@'));
    expect(wrong).toMatchObject({ status: 400, code: 40000, message: 'error.import_source_login_refused' });
    const missing = await inspect(`${servers[kind]}/no_such_database_here`);
    expect(missing).toMatchObject({ status: 400, code: 40000, message: 'error.import_source_no_database' });
    const port = await closedPort();
    const unreached = await inspect(source.url.replace(/127\.0\.0\.1:\d+/, `127.0.0.1:${port}`));
    expect(unreached).toMatchObject({ status: 400, code: 40000, message: 'error.import_source_unreachable' });
    for (const reply of [wrong, missing, unreached]) {
      expect(reply.params, JSON.stringify(reply)).toEqual({});
      expect(JSON.stringify(reply)).not.toMatch(/wrong-password|no_such_user_here|authentication|Access denied|ECONNREFUSED|no_such_database_here|does not exist|Unknown database/i);
    }
    expect(messageText('en', 'error.import_source_login_refused')).toMatch(/user name or password/);
    expect(messageText('zh', 'error.import_source_no_database')).toMatch(/没有此名称的数据库/);
  });
});
