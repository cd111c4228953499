/** What a rule does now, in a sentence, and who changed the rules last (the owner, the customer's team or an operator). */
import Typography from '@mui/material/Typography';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatDateTime } from '../screens/shownDates';
import type { OutOfOffice, Rules } from './rulesApi';

/** "mailbox:ann@example.com" (as the audit log names actors) → who, in the reader's words. */
export function actorText(updatedBy: string, translate: (key: string, options?: Record<string, unknown>) => string): string {
  const [kind, ...rest] = updatedBy.split(':');
  const name = rest.join(':');
  const known = ['mailbox', 'customer', 'team_member', 'operator'];
  return known.includes(kind) ? translate(`app.rules.actor.${kind}`, { name }) : updatedBy;
}

export type OutOfOfficeState = 'off' | 'on' | 'scheduled' | 'ended';

export function outOfOfficeState(ooo: OutOfOffice, now = new Date()): OutOfOfficeState {
  if (!ooo.enabled) return 'off';
  if (ooo.ends_at && new Date(ooo.ends_at) < now) return 'ended';
  if (ooo.starts_at && new Date(ooo.starts_at) > now) return 'scheduled';
  return 'on';
}

export function LastChange({ rules }: { rules: Rules }) {
  const translate = useTranslate();
  const [raLocale] = useLocaleState();
  if (!rules.updated_at) return null;
  return (
    <Typography variant="caption" color="text.secondary" component="p" className="rules-last-change" sx={{ mt: 1 }}>
      {rules.updated_by
        ? translate('app.rules.changed_by', { at: formatDateTime(rules.updated_at, raLocale === 'en' ? 'en' : 'zh'), who: actorText(rules.updated_by, translate) })
        : translate('app.rules.changed', { at: formatDateTime(rules.updated_at, raLocale === 'en' ? 'en' : 'zh') })}
    </Typography>
  );
}
