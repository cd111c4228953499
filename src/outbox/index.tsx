/** The outgoing mail: e-mail templates and the send log, with template keys and languages by their names. */
import DescriptionIcon from '@mui/icons-material/Description';
import OutboxIcon from '@mui/icons-material/Outbox';
import { useRecordContext, useTranslate } from 'react-admin';
import { emailSendLog } from '../../resources/email_send_log';
import { emailTemplate } from '../../resources/email_template';
import type { FieldViewProps, ScreenFeature } from '../screens/screen';

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

export const emailTemplates: ScreenFeature = { declaration: emailTemplate, extension: { views: { key: TemplateName } }, icon: DescriptionIcon };
export const sendLog: ScreenFeature = { declaration: emailSendLog, extension: { views: { template_key: TemplateName, locale: LanguageName } }, icon: OutboxIcon };
