/**
 * An activity-log entry as a sentence a person reads: who (you / a team member / an operator)
 * did what to which record, and what changed, with field labels and formatted values. Pure:
 * the translate function, the reader's area and language, and the declarations that say how
 * the records' fields read come from outside.
 */
import { namingFields } from '../../../resources/audit_log';
import type { Area, Field, ResourceDeclaration } from '../../../resources/define';
import { resourceTexts } from '../../i18n/resources';
import { formatBytes } from '../../screens/bytes';
import { enumLabelKey } from '../../screens/fields';
import { formatDateTime } from '../../screens/shownDates';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

export interface LogEntry {
  actor_type: string;
  actor_id?: number | null;
  actor_name?: string | null;
  action: string;
  target_type: string;
  target_id?: number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** The API key a script made the change with. */
  api_key_name?: string | null;
}

/** The API's record types that are not declaration names. */
const declarationOf = (type: string) => (type === 'user' ? 'customer' : type);
const fieldsOf = (type: string, declarations: readonly ResourceDeclaration[]): Record<string, Field> =>
  declarations.find((d) => d.name === declarationOf(type))?.fields ?? {};


function who(entry: LogEntry, area: Area, t: Translate): string {
  const name = entry.actor_name || (entry.actor_id ? `#${entry.actor_id}` : '');
  switch (entry.actor_type) {
    case 'customer':
      return area === 'admin' ? t('app.log.you') : t('app.log.customer', { name });
    case 'team_member':
      return t('app.log.member', { name });
    case 'operator':
      // Customers are told an operator acted, never who (the server hides the details too).
      return area === 'admin' ? t('app.log.an_operator') : t('app.log.operator', { name });
    case 'system':
      return t('app.log.system');
    case 'mailbox':
      return t('app.log.mailbox', { name });
    default:
      return t('app.log.visitor');
  }
}

function typeName(type: string, locale: 'zh' | 'en', t: Translate): string {
  const own = t(`app.log.target.${type}`, { _: '' });
  if (own) return own;
  const declared = resourceTexts[locale][declarationOf(type)]?.name.split('||||')[0].trim();
  if (!declared) return type;
  return locale === 'en' ? declared.toLowerCase() : declared;
}

export function recordName(entry: LogEntry): string {
  const record = { ...(entry.before ?? {}), ...(entry.after ?? {}) };
  const field = namingFields.find((f) => typeof record[f] === 'string' && record[f] !== '');
  return field ? String(record[field]) : entry.target_id ? `#${entry.target_id}` : '';
}

/** The record type a person is, when they act on their own login ("You signed in", not "… to the account “#2”"). */
const ownRecordType: Record<string, string> = { customer: 'user', team_member: 'user', operator: 'operator', mailbox: 'email' };
const isOwnRecord = (entry: LogEntry) =>
  entry.actor_id != null && entry.actor_id === entry.target_id && ownRecordType[entry.actor_type] === entry.target_type;

export function logSentence(entry: LogEntry, area: Area, locale: 'zh' | 'en', t: Translate): string {
  const person = who(entry, area, t);
  const by = entry.api_key_name ? t('app.log.with_key', { who: person, name: entry.api_key_name }) : person;
  // Signing in and out of one's own login reads without the record: "You signed in".
  const own = isOwnRecord(entry) ? t(`app.log.own.${entry.action}`, { _: '', who: by }) : '';
  if (own) return own.replace(/\s+/g, ' ').trim();
  const name = recordName(entry);
  // A record without a name (a rule that applies to a whole group) reads as its type alone.
  const target = name ? t('app.log.record', { type: typeName(entry.target_type, locale, t), name }) : typeName(entry.target_type, locale, t);
  // Some records' deletion has its own word: an API key is revoked, not deleted.
  const action = t(`app.log.action_for.${entry.target_type}.${entry.action}`, { _: '' }) || t(`app.log.action.${entry.action}`, { _: entry.action });
  return t('app.log.sentence', { who: by, action, target }).replace(/\s+/g, ' ').trim();
}

export function formatValue(value: unknown, field: Field | undefined, name: string, locale: 'zh' | 'en', t: Translate): string {
  if (field?.writeOnly) return t('app.log.hidden');
  if (value === null || value === undefined || value === '') return t('app.log.empty');
  switch (field?.kind) {
    case 'bytes':
      return formatBytes(value);
    case 'boolean':
      return t(value === 1 || value === true ? 'ra.boolean.true' : 'ra.boolean.false');
    case 'enum':
      return t(enumLabelKey(name, value), { _: String(value) });
    case 'datetime': {
      const d = new Date(String(value));
      return Number.isNaN(d.getTime()) ? String(value) : formatDateTime(d, locale);
    }
  }
  if (name === 'locale') return t(enumLabelKey('locale', value), { _: String(value) });
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export interface Change {
  field: string;
  label: string;
  before?: string;
  after?: string;
}

/** Each field that differs between before and after (a creation has only "after", a deletion only "before"). */
export function logChanges(entry: LogEntry, declarations: readonly ResourceDeclaration[], locale: 'zh' | 'en', t: Translate): Change[] {
  const fields = fieldsOf(entry.target_type, declarations);
  const texts = resourceTexts[locale][declarationOf(entry.target_type)]?.fields ?? {};
  const before = entry.before ?? undefined;
  const after = entry.after ?? undefined;
  const names = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter(
    (n) => n !== 'id' && n !== 'updated_at' && JSON.stringify(before?.[n]) !== JSON.stringify(after?.[n]),
  );
  return names.map((name) => ({
    field: name,
    label: texts[name] ?? t(`app.log.field_name.${name}`, { _: name }),
    before: before ? formatValue(before[name], fields[name], name, locale, t) : undefined,
    after: after ? formatValue(after[name], fields[name], name, locale, t) : undefined,
  }));
}
