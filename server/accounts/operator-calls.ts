/** /api/manage/login/* and the operator's own profile (/api/manage/me/*). */
import { z } from 'zod';
import { lineText } from '../../resources/text.js';
import { audit } from '../core/audit.js';
import { defineCall } from '../core/calls.js';
import { AppError, fieldError } from '../core/errors.js';
import { hashPassword, verifyPassword } from '../core/passwords.js';
import { signInOperator } from './operator-sign-in.js';
import { revokeSession, revokeSessionsOf } from './sessions.js';
import { revokeKeysOf } from '../api-keys/keys.js';
import { countWrongPassword } from './sign-in-throttle.js';
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';
import type { Locale } from '../../resources/customer.js';

const profileColumns = ['id', 'username', 'role', 'status', 'last_login_at', 'created_at'] as const;
const profile = (db: Db, id: number) => db.selectFrom('admin').select(profileColumns).where('id', '=', id).executeTakeFirstOrThrow();

export const operatorCalls = [
  defineCall({
    method: 'POST',
    path: '/api/manage/login/login',
    auth: 'public',
    tag: 'manage/login',
    summary: 'Operator sign-in; answers with a session (id, username, role, token). An operator with a second factor (or under the policy that requires one) gets error 40103 instead, whose params hold a pending sign-in for /api/manage/login/second_factor, passkey or enrol_totp.',
    input: z.object({ username: lineText(1, 64), password: z.string().min(1).max(128) }),
    async handler(input, ctx) {
      const { db, limiter } = ctx.services;
      await limiter.beforeSignIn(`operator:${input.username}`, ctx.ip);
      const operator = await db.selectFrom('admin').selectAll().where('username', '=', input.username).executeTakeFirst();
      if (!(await verifyPassword(operator?.password_hash, input.password)) || !operator) {
        await countWrongPassword(ctx, `operator:${input.username}`, operator && { kind: 'operator', id: operator.id });
        await audit(db, ctx, { action: 'login_failed', targetType: 'operator', targetId: operator?.id ?? null, after: { username: input.username } });
        throw new AppError('badCredentials', 'error.bad_operator_credentials');
      }
      await limiter.succeededSignIn(`operator:${input.username}`, ctx.ip);
      return signInOperator(ctx, operator, 'password');
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/login/logout',
    keys: false,
    auth: 'operator',
    tag: 'manage/login',
    summary: 'End this operator session.',
    input: z.object({}),
    async handler(_input, ctx) {
      await revokeSession(ctx.services.db, ctx.actor.sessionId);
      await audit(ctx.services.db, ctx, { action: 'logout', targetType: 'operator', targetId: ctx.actor.id });
      return null;
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/me/info',
    reads: true,
    auth: 'operator',
    tag: 'manage/me',
    summary: 'The signed-in operator (added for the operator profile page).',
    input: z.object({}),
    handler: (_input, ctx) => profile(ctx.services.db, ctx.actor.id),
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/me/update_password',
    keys: false,
    auth: 'operator',
    tag: 'manage/me',
    summary:
      "Change the signed-in operator's password (the current one is required); ends their other sessions. With `revoke_api_keys: true`, also revokes every API key they made.",
    input: z.object({ old_password: z.string().min(1).max(128), password: z.string().min(8).max(128), revoke_api_keys: z.boolean().default(false) }),
    async handler(input, ctx) {
      const { db, limiter } = ctx.services;
      await limiter.beforeSignIn(`operator:${ctx.actor.username}`, ctx.ip);
      const { password_hash } = await db.selectFrom('admin').select('password_hash').where('id', '=', ctx.actor.id).executeTakeFirstOrThrow();
      if (!(await verifyPassword(password_hash, input.old_password))) {
        await countWrongPassword(ctx, `operator:${ctx.actor.username}`, { kind: 'operator', id: ctx.actor.id });
        throw fieldError('old_password', 'validation.wrong_password');
      }
      await limiter.succeededSignIn(`operator:${ctx.actor.username}`, ctx.ip);
      const newHash = await hashPassword(input.password);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('admin').set({ password_hash: newHash, updated_at: now() }).where('id', '=', ctx.actor.id).execute();
        await revokeSessionsOf(trx, 'operator', [ctx.actor.id], ctx.actor.sessionId);
        const revoked = input.revoke_api_keys ? { api_keys_revoked: await revokeKeysOf(trx, { admin_id: ctx.actor.id }) } : undefined;
        await audit(trx, ctx, { action: 'update_password', targetType: 'operator', targetId: ctx.actor.id, after: revoked });
      });
      return profile(db, ctx.actor.id);
    },
  }),
];
