/**
 * `maildesk operator create | reset-password | reset-second-factor`: what an operator who is
 * locked out (or the first one, on a new installation) needs at the terminal. Each change is
 * in the activity log as the system's "command line" work.
 */
import crypto from 'node:crypto';
import { operatorRoles, type OperatorRole } from '../../resources/define.js';
import { revokeSessionsOf } from '../accounts/sessions.js';
import { audit, systemOrigin } from '../core/audit.js';
import { defineCommand, type CommandContext } from '../core/command.js';
import { hashPassword } from '../core/passwords.js';
import { now } from '../core/time.js';
import type { Db } from '../db/index.js';
import { removePasskeys } from '../security/passkeys.js';
import { removeRecoveryCodes } from '../security/recovery-codes.js';
import { removeTotp } from '../security/totp.js';
import { optionOf, readStdin, withDatabase } from './command-database.js';

const origin = systemOrigin('command line');

/** The password from standard input (--password-stdin), or a new one shown once. */
async function passwordFor(args: string[], ctx: CommandContext): Promise<{ password: string; generated: boolean } | undefined> {
  if (!args.includes('--password-stdin')) return { password: crypto.randomBytes(12).toString('base64url'), generated: true };
  const password = (await readStdin()).replace(/\r?\n$/, '');
  if (password.length < 8 || password.length > 128) {
    ctx.warn({ en: 'The password must have 8 to 128 characters.', zh: '密码须为 8 至 128 个字符。' });
    return undefined;
  }
  return { password, generated: false };
}

function showPassword(ctx: CommandContext, username: string, password: { password: string; generated: boolean }) {
  if (!password.generated) return;
  ctx.say({ en: `Password of "${username}" (shown only once): ${password.password}`, zh: `“${username}”的密码（仅显示这一次）：${password.password}` });
}

async function operatorByName(db: Db, username: string) {
  return db.selectFrom('admin').select(['id', 'username', 'role', 'status']).where('username', '=', username).executeTakeFirst();
}

function usernameOf(args: string[], ctx: CommandContext): string | undefined {
  const username = args.find((a) => !a.startsWith('--') && !optionValues(args).includes(a));
  if (!username) ctx.warn({ en: 'Name the operator: maildesk operator … USERNAME', zh: '请指明操作员：maildesk operator … 用户名' });
  return username;
}

/** Values given to options (`--role support`), which are not the username. */
const optionValues = (args: string[]) => args.flatMap((a, i) => (a === '--role' && args[i + 1] ? [args[i + 1]] : []));

export const operatorCommands = [
  defineCommand({
    name: 'operator create',
    usage: 'USERNAME [--role superadmin|support|billing] [--password-stdin]',
    summary: { en: 'Create an operator (superadmin unless --role says otherwise)', zh: '创建操作员（默认超级管理员，可用 --role 指定角色）' },
    details: {
      en: 'Without --password-stdin a password is generated and shown once.',
      zh: '不带 --password-stdin 时生成一个密码并只显示一次。',
    },
    async run(args, ctx) {
      const username = usernameOf(args, ctx);
      if (!username) return 2;
      if (username.length < 3 || username.length > 64) {
        ctx.warn({ en: 'A username has 3 to 64 characters.', zh: '用户名须为 3 至 64 个字符。' });
        return 2;
      }
      const role = (optionOf(args, '--role') ?? 'superadmin') as OperatorRole;
      if (!operatorRoles.includes(role)) {
        ctx.warn({ en: `Unknown role "${role}": ${operatorRoles.join(', ')}`, zh: `未知角色“${role}”：${operatorRoles.join('、')}` });
        return 2;
      }
      const password = await passwordFor(args, ctx);
      if (!password) return 2;
      return withDatabase(ctx, async (database) => {
        if (await operatorByName(database.db, username)) {
          ctx.warn({ en: `An operator "${username}" already exists; nothing was changed.`, zh: `操作员“${username}”已存在，未做任何更改。` });
          return 1;
        }
        const passwordHash = await hashPassword(password.password);
        await database.db.transaction().execute(async (trx) => {
          const at = now();
          const { id } = await trx
            .insertInto('admin')
            .values({ username, password_hash: passwordHash, role, status: 'active', created_at: at, updated_at: at })
            .returning('id')
            .executeTakeFirstOrThrow();
          await audit(trx, origin, { action: 'create', targetType: 'admin', targetId: id, after: { username, role } });
        });
        ctx.say({ en: `Operator "${username}" created (${role}).`, zh: `已创建操作员“${username}”（${role}）。` });
        showPassword(ctx, username, password);
        return 0;
      });
    },
  }),
  defineCommand({
    name: 'operator reset-password',
    usage: 'USERNAME [--password-stdin]',
    summary: { en: "Give an operator a new password and end all of the operator's sessions", zh: '为操作员设置新密码，并结束其所有会话' },
    async run(args, ctx) {
      const username = usernameOf(args, ctx);
      if (!username) return 2;
      const password = await passwordFor(args, ctx);
      if (!password) return 2;
      return withDatabase(ctx, async (database) => {
        const operator = await operatorByName(database.db, username);
        if (!operator) {
          ctx.warn({ en: `No operator "${username}".`, zh: `没有操作员“${username}”。` });
          return 1;
        }
        const passwordHash = await hashPassword(password.password);
        await database.db.transaction().execute(async (trx) => {
          await trx.updateTable('admin').set({ password_hash: passwordHash, updated_at: now() }).where('id', '=', operator.id).execute();
          await revokeSessionsOf(trx, 'operator', [operator.id]);
          await audit(trx, origin, { action: 'password_reset', targetType: 'admin', targetId: operator.id, after: { username } });
        });
        ctx.say({ en: `New password set for "${username}"; their sessions have ended.`, zh: `已为“${username}”设置新密码，其会话均已结束。` });
        showPassword(ctx, username, password);
        return 0;
      });
    },
  }),
  defineCommand({
    name: 'operator reset-second-factor',
    usage: 'USERNAME',
    summary: { en: "Remove an operator's authenticator app, recovery codes and passkeys (a lost phone)", zh: '移除操作员的验证器应用、恢复码和通行密钥（手机丢失时）' },
    details: {
      en: 'The operator then signs in with the password alone, or enrols again if operators must have a second factor.',
      zh: '之后该操作员仅凭密码登录；若要求操作员使用第二因素，则须重新绑定。',
    },
    async run(args, ctx) {
      const username = usernameOf(args, ctx);
      if (!username) return 2;
      return withDatabase(ctx, async (database) => {
        const operator = await operatorByName(database.db, username);
        if (!operator) {
          ctx.warn({ en: `No operator "${username}".`, zh: `没有操作员“${username}”。` });
          return 1;
        }
        const holder = { kind: 'operator' as const, id: operator.id };
        const removed = await database.db.transaction().execute(async (trx) => {
          const totp = await removeTotp(trx, holder);
          await removeRecoveryCodes(trx, holder);
          const passkeys = await removePasskeys(trx, holder);
          await revokeSessionsOf(trx, 'operator', [operator.id]);
          await audit(trx, origin, { action: 'second_factor_reset', targetType: 'admin', targetId: operator.id, after: { username, totp_removed: totp, passkeys_removed: passkeys } });
          return { totp, passkeys };
        });
        ctx.say({
          en: `Second factors of "${username}" removed (authenticator app: ${removed.totp ? 'yes' : 'none'}, passkeys: ${removed.passkeys}); their sessions have ended.`,
          zh: `已移除“${username}”的第二因素（验证器应用：${removed.totp ? '有' : '无'}，通行密钥：${removed.passkeys} 个），其会话均已结束。`,
        });
        return 0;
      });
    },
  }),
];
