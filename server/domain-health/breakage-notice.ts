/** The e-mail telling a domain's owner which of its records broke, and what to publish instead. */
import type { Selectable } from 'kysely';
import type { Locale } from '../../resources/customer.js';
import { messageText } from '../../resources/messages.js';
import type { Config } from '../config.js';
import type { TemplateMail } from '../core/mailer.js';
import type { Db } from '../db/index.js';
import type { DomainRow } from '../db/schema.js';
import type { CheckedRecord } from '../mail/dns-records.js';

const kindNames: Record<Locale, Record<string, string>> = {
  en: { verification: 'Ownership', mx: 'MX', spf: 'SPF', dkim: 'DKIM', dkim_next: 'DKIM (next key)', dmarc: 'DMARC', mta_sts: 'MTA-STS', mta_sts_host: 'MTA-STS host', tls_rpt: 'TLS reporting' },
  zh: { verification: '所有权验证', mx: 'MX', spf: 'SPF', dkim: 'DKIM', dkim_next: 'DKIM（新密钥）', dmarc: 'DMARC', mta_sts: 'MTA-STS', mta_sts_host: 'MTA-STS 主机', tls_rpt: 'TLS 报告' },
};

/** One line per broken record: its name, and the checker's own advice. */
export const brokenLines = (locale: Locale, records: CheckedRecord[]) => records.map((r) => `- ${kindNames[locale][r.kind] ?? r.kind}: ${messageText(locale, r.message, r.params)}`).join('\n');

/** The message to the domain's customer; none when the customer is gone. */
export async function breakageMail(db: Db, config: Pick<Config, 'publicUrl'>, domain: Selectable<DomainRow>, broken: CheckedRecord[]): Promise<TemplateMail | undefined> {
  const owner = await db.selectFrom('user').select(['email', 'locale']).where('id', '=', domain.owner_id).executeTakeFirst();
  if (!owner) return undefined;
  const locale: Locale = owner.locale === 'en' ? 'en' : 'zh';
  return {
    key: 'dns_record_broken',
    locale,
    to: owner.email,
    userId: domain.owner_id,
    params: { domain: domain.name_unicode, count: broken.length, records: brokenLines(locale, broken), link: `${config.publicUrl}/admin/domain/update?id=${domain.id}` },
  };
}
