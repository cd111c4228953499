/**
 * Mail stores as records (resources/mail_store.ts): one is never deleted while mail is on it, and
 * what each holds is measured every five minutes for the placement rule and the operators' pages.
 */
import { AppError } from '../../core/errors.js';
import { defineSchedule } from '../../core/jobs.js';
import type { ResourceBehaviour } from '../../core/resource-calls.js';
import type { Services } from '../../core/services.js';
import { now } from '../../core/time.js';
import { heldStates } from '../mailbox-deletion.js';

export const mailStoreBehaviour: ResourceBehaviour = {
  async check(change, ctx) {
    if (change.op !== 'delete') return;
    const id = change.before!.id;
    // Index reads: one mailbox, or one deleted mailbox whose mail is still kept there (a restore brings it back to this store).
    const found = await ctx.trx
      .selectNoFrom((eb) => [
        eb.selectFrom('mailbox').select('id').where('store_id', '=', id).limit(1).as('mailbox'),
        eb.selectFrom('deleted_mailbox').select('id').where('store_id', '=', id).where('state', 'in', heldStates).limit(1).as('deleted'),
      ])
      .executeTakeFirstOrThrow();
    if (found.mailbox !== null || found.deleted !== null) throw new AppError('conflict', 'error.mail_store_in_use', { store: change.before!.name });
  },
};

/**
 * Each store's bytes in use (as Dovecot wrote them back) and mailboxes. One pass over the
 * mailboxes by the index (store_id, id) per store: a few seconds at a million mailboxes, every
 * five minutes, instead of a counter on the store's row that every new mailbox would wait for.
 */
export async function measureStores({ db }: Pick<Services, 'db'>) {
  await db
    .updateTable('mail_store')
    .set((eb) => ({
      used_bytes: eb
        .selectFrom('mailbox as m')
        .innerJoin('mailbox_usage as u', 'u.address', 'm.address')
        .select((s) => s.fn.coalesce(s.fn.sum<number>('u.bytes'), s.lit(0)).as('bytes'))
        .whereRef('m.store_id', '=', 'mail_store.id'),
      mailboxes: eb
        .selectFrom('mailbox as m')
        .select((s) => s.fn.countAll<number>().as('count'))
        .whereRef('m.store_id', '=', 'mail_store.id'),
      measured_at: now(),
    }))
    .execute();
}

export const measureStoresSchedule = defineSchedule({
  name: 'mail.measure-stores',
  cron: '*/5 * * * *',
  handler: ({ services }) => measureStores(services),
});
