/**
 * services.files: files every instance of the panel reaches (ticket attachments, and whatever is
 * stored later): rows of the database by default, or an S3-compatible bucket when S3_BUCKET is
 * set. A file is written once under a new key and never changed; its record names the key.
 */
import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import type { FileStore } from './file-store.js';
import { now } from './time.js';

export function databaseFileStore(db: Db): FileStore {
  return {
    kind: 'database',
    async put(key, data) {
      await db
        .insertInto('stored_file')
        .values({ key, data, size: data.length, created_at: now() })
        .onConflict((c) => c.column('key').doNothing())
        .execute();
    },
    async get(key) {
      const row = await db.selectFrom('stored_file').select('data').where('key', '=', key).executeTakeFirst();
      return row ? Buffer.from(row.data) : undefined;
    },
    async has(key) {
      return !!(await db.selectFrom('stored_file').select('key').where('key', '=', key).executeTakeFirst());
    },
    async remove(keys) {
      if (keys.length) await db.deleteFrom('stored_file').where('key', 'in', keys).execute();
    },
  };
}

export async function createFileStore(config: Pick<Config, 's3'>, db: Db): Promise<FileStore> {
  if (!config.s3) return databaseFileStore(db);
  // Loaded only when configured: the SDK is large, and most installations keep files in the database.
  const { s3FileStore } = await import('./s3-files.js');
  return s3FileStore(config.s3);
}
