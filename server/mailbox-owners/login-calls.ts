/**
 * /api/mail/login/*: a mailbox owner signs in with the mailbox's address and password, throttled
 * like every sign-in (per address and per IP), with the same answer for an unknown address and a
 * wrong password; every attempt is in the audit log.
 */
import { z } from 'zod';
import { emailAddress } from '../../resources/define.js';
import { revokeSession } from '../accounts/sessions.js';
import { countWrongPassword } from '../accounts/sign-in-throttle.js';
import { audit } from '../core/audit.js';
import { defineCall } from '../core/calls.js';
import { isMailboxPassword, mailboxByAddress, maySignIn, refuseSignIn, signInMailbox, upgradeHash } from './sign-in.js';

export const mailLoginCalls = [
  defineCall({
    method: 'POST',
    path: '/api/mail/login/login',
    auth: 'public',
    tag: 'mail/login',
    summary:
      "Sign in to the mailbox owners' area with the mailbox's address and password; answers with a session ({id, email, name, token}). The same answer for an unknown address and a wrong password; a deactivated mailbox, domain or customer, or a domain whose area is off, is refused (error.mailbox_sign_in_refused). A password hash of an older scheme (imports) is replaced by argon2id. A mailbox with a second factor gets a pending sign-in instead (error 40103).",
    input: z.object({ email: emailAddress, password: z.string().min(1).max(128) }),
    async handler(input, ctx) {
      const { db, limiter } = ctx.services;
      await limiter.beforeSignIn(input.email, ctx.ip);
      const box = await mailboxByAddress(db, input.email);
      if (!(await isMailboxPassword(box, input.password)) || !box) {
        await countWrongPassword(ctx, input.email, undefined);
        return refuseSignIn(ctx, input.email, box, 'password');
      }
      await limiter.succeededSignIn(input.email, ctx.ip);
      if (!maySignIn(box)) return refuseSignIn(ctx, input.email, box, 'not_allowed');
      const upgradedFrom = await upgradeHash(db, box, input.password);
      return signInMailbox(ctx, box, { method: 'password', ...(upgradedFrom ? { upgraded_from: upgradedFrom } : {}) });
    },
  }),
  defineCall({
    method: 'POST',
    path: '/api/mail/login/logout',
    auth: 'mailbox',
    tag: 'mail/login',
    summary: 'End this session.',
    input: z.object({}),
    async handler(_input, ctx) {
      await revokeSession(ctx.services.db, ctx.actor.sessionId);
      await audit(ctx.services.db, ctx, { action: 'logout', targetType: 'email', targetId: ctx.actor.mailboxId, userId: ctx.actor.customerId });
      return null;
    },
  }),
];
