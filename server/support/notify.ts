/**
 * Who hears about a ticket: the customer (the account that opened it) when an operator
 * replies or closes; the operators who handle it when a ticket arrives or the customer
 * writes: its assignee, else every active operator of the category's role with an address.
 */
import type { Locale } from '../../resources/customer.js';
import type { TemplateKey } from '../../resources/email_template.js';
import type { Db } from '../db/index.js';
import type { TicketRow } from '../db/schema.js';
import type { Services } from '../core/services.js';

export interface Notice {
  key: TemplateKey;
  locale: Locale;
  to: string;
  params: Record<string, string | number>;
  userId: number | null;
}

type Ticket = Pick<TicketRow, 'number' | 'subject' | 'owner_id' | 'author_id' | 'assignee_id' | 'category'> & { id: number };

const localeOf = (value: string | null | undefined): Locale => (value === 'en' ? 'en' : 'zh');
/** Mails quote the message; a very long one is cut (the panel has it whole). */
const excerpt = (text: string) => (text.length > 2000 ? `${text.slice(0, 2000)}…` : text);

export async function customerNotice(db: Db, services: Services, ticket: Ticket, key: TemplateKey, message: string): Promise<Notice[]> {
  const ids = [ticket.author_id, ticket.owner_id].filter((id): id is number => Boolean(id));
  const accounts = await db.selectFrom('user').select(['id', 'email', 'locale', 'status']).where('id', 'in', ids).execute();
  // The account that opened it, or the customer when that team member is gone.
  const reader = accounts.find((a) => a.id === ticket.author_id && a.status === 'active') ?? accounts.find((a) => a.id === ticket.owner_id);
  if (!reader) return [];
  return [
    {
      key,
      locale: localeOf(reader.locale),
      to: reader.email,
      params: { number: ticket.number, subject: ticket.subject, message: excerpt(message), link: `${services.config.publicUrl}/admin/ticket/view?id=${ticket.id}` },
      userId: ticket.owner_id,
    },
  ];
}

export async function operatorNotices(db: Db, services: Services, ticket: Ticket, key: TemplateKey, message: string): Promise<Notice[]> {
  const base = db.selectFrom('admin').select(['email', 'locale']).where('status', '=', 'active').where('email', 'is not', null).where('email', '!=', '');
  let operators = ticket.assignee_id ? await base.where('id', '=', ticket.assignee_id).execute() : [];
  if (operators.length === 0) {
    const role = ticket.category === 'billing' ? 'billing' : 'support';
    operators = await base.where('role', '=', role).execute();
    if (operators.length === 0) operators = await base.where('role', '=', 'superadmin').execute();
  }
  return operators.map((operator) => ({
    key,
    locale: localeOf(operator.locale),
    to: String(operator.email),
    params: { number: ticket.number, subject: ticket.subject, message: excerpt(message), link: `${services.config.publicUrl}/manage/ticket/view?id=${ticket.id}` },
    userId: ticket.owner_id,
  }));
}

/** Queues the notices in the transaction of the change that causes them: sent iff it commits. */
export async function sendNotices(trx: Db, services: Services, notices: Notice[] | Promise<Notice[]>) {
  for (const notice of await notices) await services.mailer.send(trx, notice);
}
