/** A PostgreSQL database of its own on the server DATABASE_URL names, dropped when done. */
import crypto from 'node:crypto';
import pg from 'pg';

/** `template`: a copy of that database (template-database.ts), instead of an empty one. */
export async function freshPostgresDatabase(serverUrl: string, prefix = 'maildesk_t', template?: string) {
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: serverUrl });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}
