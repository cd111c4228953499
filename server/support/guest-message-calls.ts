/**
 * The public contact form (POST /api/message/send), and the operators' answers: a reply by
 * e-mail (through the outbox, in the same transaction as the reply's record) and the messages'
 * handled state.
 */
import { z } from 'zod';
import { staff, supportStaff } from '../../resources/define.js';
import { guestMessageInput, guestReplyInput } from '../../resources/guest_message.js';
import { audit } from '../core/audit.js';
import { defineCall, type CallContext } from '../core/calls.js';
import { notFound } from '../core/errors.js';
import { idInput } from '../core/resource-calls.js';
import { now } from '../core/time.js';

export const guestMessageCalls = [
  defineCall({
    method: 'POST',
    path: '/api/message/send',
    auth: 'public',
    tag: 'message',
    summary: 'A visitor writes to the provider. At most 5 messages per hour from one IP; `website` must stay empty.',
    input: guestMessageInput,
    async handler({ website, ...message }, ctx) {
      await ctx.services.limiter.hit(['guestMessagePerIp', ctx.ip]);
      // A filled honeypot is a robot: answer as if accepted, keep nothing.
      if (website) return null;
      const { db } = ctx.services;
      const { id } = await db
        .insertInto('guest_message')
        .values({ ...message, ip: ctx.ip, user_agent: ctx.userAgent.slice(0, 500), created_at: now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await audit(db, ctx, { action: 'create', targetType: 'guest_message', targetId: id, after: { name: message.name, email: message.email, subject: message.subject } });
      return null;
    },
  }),
];

async function guestMessageOf(ctx: CallContext, id: number, db = ctx.services.db) {
  const row = await db.selectFrom('guest_message').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

const operatorOf = (ctx: CallContext) => (ctx.actor.kind === 'operator' ? ctx.actor : undefined);

export const guestReplyCalls = [
  defineCall({
    method: 'POST',
    path: '/api/manage/guest_message/reply',
    auth: 'operator',
    roles: supportStaff,
    tag: 'manage/guest_message',
    summary:
      'Answers a guest message by e-mail (template guest_reply, in `locale` or the operator\'s language): the reply is recorded, queued for sending in the same transaction, and the message becomes handled.',
    input: guestReplyInput,
    async handler({ id, subject, body, locale }, ctx) {
      const operator = operatorOf(ctx)!;
      const language = locale ?? ctx.locale;
      return ctx.services.db.transaction().execute(async (trx) => {
        const message = await guestMessageOf(ctx, id, trx);
        const at = now();
        await trx
          .insertInto('guest_message_reply')
          .values({ guest_message_id: id, operator_id: operator.id, operator_name: operator.username, locale: language, subject, body, created_at: at })
          .execute();
        await trx.updateTable('guest_message').set({ replied_at: at, handled: 1, handled_at: message.handled ? message.handled_at : at, handled_by: message.handled ? message.handled_by : operator.id }).where('id', '=', id).execute();
        await ctx.services.mailer.send(trx, {
          key: 'guest_reply',
          locale: language,
          to: message.email,
          params: { subject, reply: body, name: message.name, original: message.content, written_at: new Date(message.created_at).toISOString().slice(0, 16).replace('T', ' ') + ' UTC' },
        });
        await audit(trx, ctx, { action: 'reply', targetType: 'guest_message', targetId: id, before: { handled: message.handled }, after: { email: message.email, subject, handled: 1 } });
        return guestMessageOf(ctx, id, trx);
      });
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/manage/guest_message/handle',
    auth: 'operator',
    roles: supportStaff,
    tag: 'manage/guest_message',
    summary: 'Marks a guest message handled (handled 1) or open again (handled 0); repeating it changes nothing.',
    input: idInput.extend({ handled: z.union([z.literal(0), z.literal(1), z.boolean()]).transform((v) => (v === true || v === 1 ? 1 : 0)) }),
    async handler({ id, handled }, ctx) {
      const operator = operatorOf(ctx)!;
      return ctx.services.db.transaction().execute(async (trx) => {
        const message = await guestMessageOf(ctx, id, trx);
        if (message.handled === handled) return message;
        const changes = handled ? { handled: 1, handled_at: now(), handled_by: operator.id } : { handled: 0, handled_at: null, handled_by: null };
        await trx.updateTable('guest_message').set(changes).where('id', '=', id).execute();
        await audit(trx, ctx, { action: handled ? 'handled' : 'reopen', targetType: 'guest_message', targetId: id, before: { handled: message.handled }, after: { email: message.email, handled } });
        return guestMessageOf(ctx, id, trx);
      });
    },
  }),
  defineCall({
    method: 'GET',
    path: '/api/manage/guest_message/replies',
    auth: 'operator',
    roles: staff,
    tag: 'manage/guest_message',
    summary: 'The replies sent to a guest message, oldest first: who answered, when, in which language, subject and text.',
    input: idInput,
    async handler({ id }, ctx) {
      await guestMessageOf(ctx, id);
      return ctx.services.db.selectFrom('guest_message_reply').selectAll().where('guest_message_id', '=', id).orderBy('id', 'asc').limit(500).execute();
    },
  }),
];
