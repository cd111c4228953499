/** The first operator, created at start when there is none; a generated password is shown once. */
import crypto from 'node:crypto';
import type { Config } from '../config.js';
import { hashPassword } from '../core/passwords.js';
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';

export async function ensureFirstOperator(db: Db, config: Pick<Config, 'adminUsername' | 'adminPassword'>) {
  const any = await db.selectFrom('admin').select('id').executeTakeFirst();
  if (any) return undefined;
  const password = config.adminPassword ?? crypto.randomBytes(12).toString('base64url');
  const at = now();
  await db
    .insertInto('admin')
    .values({ username: config.adminUsername, password_hash: await hashPassword(password), role: 'superadmin', status: 'active', created_at: at, updated_at: at })
    .execute();
  return { username: config.adminUsername, password, generated: !config.adminPassword };
}
