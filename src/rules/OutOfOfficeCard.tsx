/**
 * The out-of-office reply: on or off, from and until when (wall-clock times of a chosen time
 * zone), subject and text, and how often one sender is answered. The mail server sends it
 * (Sieve's vacation), never to lists, bulk or automatic mail, nor to the owner's own addresses.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useMemo } from 'react';
import {
  AutocompleteInput,
  BooleanInput,
  Form,
  NumberInput,
  SaveButton,
  TextInput,
  maxLength,
  maxValue,
  minValue,
  required,
  useLocaleState,
  useNotify,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { submitCall } from '../area/formCall';
import { inlineErrorsOnly } from '../area/forms';
import { SectionCard } from '../area/SectionCard';
import { formatDateTime } from '../screens/shownDates';
import { LastChange, outOfOfficeState } from './RuleStatus';
import type { OutOfOffice, Rules } from './rulesApi';
import { WallDateTimeInput } from './WallDateTimeInput';
import { browserTimeZone, isTimeZone, timeZoneNames, utcToWall, wallToUtc } from './zonedTime';

export const DEFAULT_INTERVAL_DAYS = 7;

interface Values {
  enabled: boolean;
  time_zone: string;
  starts_at: string | null;
  ends_at: string | null;
  subject: string;
  body: string;
  interval_days: number;
}

export function formValuesOf(ooo: OutOfOffice): Values {
  const time_zone = ooo.time_zone && isTimeZone(ooo.time_zone) ? ooo.time_zone : browserTimeZone();
  return {
    enabled: Boolean(ooo.enabled),
    time_zone,
    starts_at: utcToWall(ooo.starts_at, time_zone),
    ends_at: utcToWall(ooo.ends_at, time_zone),
    subject: ooo.subject ?? '',
    body: ooo.body ?? '',
    interval_days: ooo.interval_days || DEFAULT_INTERVAL_DAYS,
  };
}

/** What the API takes: the moments in UTC, with the zone they were written in. */
export function callValuesOf(values: Values): OutOfOffice {
  return {
    enabled: Boolean(values.enabled),
    time_zone: values.time_zone,
    starts_at: values.starts_at ? (wallToUtc(values.starts_at, values.time_zone) ?? null) : null,
    ends_at: values.ends_at ? (wallToUtc(values.ends_at, values.time_zone) ?? null) : null,
    subject: (values.subject ?? '').trim(),
    body: values.body ?? '',
    interval_days: Number(values.interval_days) || DEFAULT_INTERVAL_DAYS,
  };
}

/** Subject and text are needed only for a reply that is on; the end comes after the start. */
export function validateOutOfOffice(values: Values): Record<string, string> {
  const errors: Record<string, string> = {};
  if (values.enabled && !String(values.subject ?? '').trim()) errors.subject = 'ra.validation.required';
  if (values.enabled && !String(values.body ?? '').trim()) errors.body = 'ra.validation.required';
  if (!values.time_zone || !isTimeZone(values.time_zone)) errors.time_zone = 'app.rules.ooo.bad_time_zone';
  if (values.starts_at && values.ends_at && values.ends_at <= values.starts_at) errors.ends_at = 'app.rules.ooo.end_before_start';
  return errors;
}

function StateNotice({ rules }: { rules: Rules }) {
  const translate = useTranslate();
  const [raLocale] = useLocaleState();
  const locale = raLocale === 'en' ? 'en' : 'zh';
  const state = outOfOfficeState(rules.out_of_office);
  const values = formValuesOf(rules.out_of_office);
  const at = (wall: string | null) => (wall ? `${formatDateTime(wall, locale)} (${values.time_zone})` : '');
  const text =
    state === 'on' && values.ends_at
      ? translate('app.rules.ooo.state.on_until', { end: at(values.ends_at) })
      : state === 'scheduled'
        ? translate('app.rules.ooo.state.scheduled', { start: at(values.starts_at) })
        : state === 'ended'
          ? translate('app.rules.ooo.state.ended', { end: at(values.ends_at) })
          : translate(`app.rules.ooo.state.${state}`);
  return (
    <Alert severity={state === 'on' ? 'success' : state === 'scheduled' ? 'info' : state === 'ended' ? 'warning' : 'info'} sx={{ mb: 2 }} className={`ooo-state ooo-state-${state}`}>
      {text}
    </Alert>
  );
}

function ReplyFields() {
  const enabled = useWatch({ name: 'enabled' });
  const zones = useMemo(() => timeZoneNames().map((name) => ({ id: name, name })), []);
  return (
    <Box sx={{ opacity: enabled ? 1 : 0.7 }}>
      <AutocompleteInput source="time_zone" label="app.rules.ooo.time_zone" choices={zones} validate={required()} fullWidth disableClearable helperText="app.rules.ooo.time_zone_hint" />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 1 }}>
        <WallDateTimeInput source="starts_at" label="app.rules.ooo.starts_at" helperText="app.rules.ooo.starts_hint" />
        <WallDateTimeInput source="ends_at" label="app.rules.ooo.ends_at" end helperText="app.rules.ooo.ends_hint" />
      </Box>
      <TextInput source="subject" label="app.rules.ooo.subject" validate={maxLength(200)} fullWidth />
      <TextInput source="body" label="app.rules.ooo.body" validate={maxLength(4000)} multiline minRows={4} fullWidth />
      <NumberInput source="interval_days" label="app.rules.ooo.interval_days" validate={[required(), minValue(1), maxValue(30)]} step={1} helperText="app.rules.ooo.interval_hint" />
    </Box>
  );
}

export function OutOfOfficeCard({ rules, save }: { rules: Rules; save: (values: OutOfOffice) => Promise<unknown> }) {
  const notify = useNotify();
  const record = useMemo(() => formValuesOf(rules.out_of_office), [rules]);
  const submit = (values: Record<string, unknown>) =>
    submitCall(
      () => save(callValuesOf(values as unknown as Values)),
      () => notify('app.rules.ooo.saved', { type: 'success' }),
    );
  return (
    <SectionCard title="app.rules.ooo.title" className="out-of-office-card">
      <StateNotice rules={rules} />
      <Form {...inlineErrorsOnly} record={record} onSubmit={submit} validate={(values) => validateOutOfOffice(values as Values)}>
        <BooleanInput source="enabled" label="app.rules.ooo.enabled" helperText="app.rules.ooo.enabled_hint" />
        <ReplyFields />
        <SaveButton label="ra.action.save" />
      </Form>
      <LastChange rules={rules} />
    </SectionCard>
  );
}
