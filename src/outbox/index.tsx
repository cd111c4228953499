/** The outgoing mail: e-mail templates and the send log, with template keys and languages by their names. */
import { useRecordContext, useTranslate } from 'react-admin';
import type { FieldViewProps, ScreenExtension } from '../screens/extensions';

/** A template key by its name in the reader's language (a key without a name reads as itself). */
export function TemplateName({ name }: FieldViewProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const key = String(record[name] ?? '');
  return <span className="template-name">{translate(`app.template.${key}`, { _: key })}</span>;
}

export function LanguageName({ name }: FieldViewProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const value = String(record[name] ?? '');
  return <span>{translate(`app.enum.locale.${value}`, { _: value })}</span>;
}

export const sendLogScreens: ScreenExtension = { views: { template_key: TemplateName, locale: LanguageName } };
export const templateScreens: ScreenExtension = { views: { key: TemplateName } };
