/** The public contact form: POST /api/message/send. */
import { defineCall } from '../core/calls.js';
import { audit } from '../core/audit.js';
import { now } from '../core/time.js';
import { guestMessageInput } from '../../resources/guest_message.js';

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
