/**
 * What a session alone may not do: turn the authenticator app off, renew the recovery codes,
 * make an API key (a key outlives the session it was made from). The person proves it is them
 * again with their password or a current code from their authenticator app, in the request's
 * `confirmation`. A wrong answer counts like a wrong password at sign-in: the same throttle
 * (a stolen session cannot guess freely), the same notice to the owner when it goes on.
 */
import { z } from 'zod';
import type { Actor } from '../core/actor.js';
import type { CallContext } from '../core/calls.js';
import { fieldError, forbidden } from '../core/errors.js';
import { verifyPassword } from '../core/passwords.js';
import { countWrongPassword, type GuessedOwner } from '../accounts/sign-in-throttle.js';
import { guessedOwner } from '../accounts/sign-in.js';
import { verifySchemeHash } from '../mail/password-schemes.js';
import { holderOf } from './holders.js';
import { acceptTotpCode } from './totp.js';

const confirmationRequired = 'validation.confirmation_required';

/** The input field: the caller's password, or the 6-digit code their authenticator app shows now. */
export const confirmation = z.string({ error: confirmationRequired }).min(1, confirmationRequired).max(128, 'validation.too_long');

/** How a person's password is checked, and under which name the sign-in throttle counts their failures. */
interface Signer {
  throttleKey: string;
  passwordIs(given: string): Promise<boolean>;
  owner: GuessedOwner | undefined;
}

async function signerOf(ctx: CallContext, actor: Actor): Promise<Signer> {
  const { db } = ctx.services;
  switch (actor.kind) {
    case 'customer': {
      const account = await db.selectFrom('user').selectAll().where('id', '=', actor.accountId).executeTakeFirstOrThrow();
      return { throttleKey: actor.email, passwordIs: (given) => verifyPassword(account.password_hash, given), owner: guessedOwner(account) };
    }
    case 'operator': {
      const { password_hash } = await db.selectFrom('admin').select('password_hash').where('id', '=', actor.id).executeTakeFirstOrThrow();
      return { throttleKey: `operator:${actor.username}`, passwordIs: (given) => verifyPassword(password_hash, given), owner: { kind: 'operator', id: actor.id } };
    }
    case 'mailbox': {
      const { password_hash } = await db.selectFrom('mailbox').select('password_hash').where('id', '=', actor.mailboxId).executeTakeFirstOrThrow();
      return { throttleKey: actor.address, passwordIs: (given) => verifySchemeHash(password_hash, given), owner: undefined };
    }
    default:
      throw forbidden();
  }
}

/** Goes on when `given` is the caller's password or a current TOTP code; refuses (40000 on `confirmation`) and counts it otherwise. */
export async function confirmIdentity(ctx: CallContext, given: string): Promise<void> {
  const signer = await signerOf(ctx, ctx.actor);
  const { db, limiter } = ctx.services;
  await limiter.beforeSignIn(signer.throttleKey, ctx.ip);
  const code = given.trim();
  const right = (/^\d{6}$/.test(code) && (await acceptTotpCode(ctx.services, holderOf(ctx.actor), code))) || (await signer.passwordIs(given));
  if (right) {
    await limiter.succeededSignIn(signer.throttleKey, ctx.ip);
    return;
  }
  await countWrongPassword(ctx, signer.throttleKey, signer.owner);
  throw fieldError('confirmation', 'validation.confirmation_wrong');
}
