import { fieldError } from '../core/errors.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';

export const emailTemplateBehaviour: ResourceBehaviour = {
  /** One template per key and locale. */
  async check(change, ctx) {
    if (change.op === 'delete') return;
    const { key, locale } = change.after as { key: string; locale: string };
    let query = ctx.trx.selectFrom('email_template').select('id').where('key', '=', key).where('locale', '=', locale);
    if (change.before) query = query.where('id', '!=', change.before.id);
    if (await query.executeTakeFirst()) throw fieldError('key', 'validation.template_exists', { key, locale });
  },
};
