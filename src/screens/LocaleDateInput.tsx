/**
 * A date (or date and time) typed in the reader's format (see dates.ts), checked by our own
 * validator with a translated message; the form holds the ISO moment. Replaces the browser's
 * date inputs, whose format and messages follow the browser, not the page.
 */
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { FieldTitle, InputHelperText, useInput, useLocaleState, useResourceContext, useTranslate, type Validator } from 'react-admin';
import { datePattern, formatDateText, parseDateText, type DateLocale } from './dates';

export function LocaleDateInput(props: { source: string; label?: string; validate?: Validator | Validator[]; withTime?: boolean; end?: boolean; alwaysOn?: boolean }) {
  const { source, label, withTime = false, end = false } = props;
  const [raLocale] = useLocaleState();
  const locale: DateLocale = raLocale === 'en' ? 'en' : 'zh';
  const translate = useTranslate();
  const resource = useResourceContext();
  const { field, fieldState, isRequired } = useInput({ source, validate: props.validate });
  const [text, setText] = useState(() => formatDateText(field.value, locale, withTime));
  const [bad, setBad] = useState(false);

  // A value set from outside (a reset filter, a loaded record, a language change) shows in the field.
  useEffect(() => {
    const typed = parseDateText(text, locale, { withTime, end });
    if ((typed?.toISOString() ?? '') !== (field.value ?? '')) setText(formatDateText(field.value, locale, withTime));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [field.value, locale]);

  const change = (next: string) => {
    setText(next);
    if (next.trim() === '') {
      setBad(false);
      return field.onChange(null);
    }
    const moment = parseDateText(next, locale, { withTime, end });
    setBad(!moment);
    if (moment) field.onChange(moment.toISOString());
  };
  const error = bad ? translate('app.date.invalid', { pattern: datePattern(locale, withTime) }) : fieldState.error?.message;
  return (
    <TextField
      className={`ra-input ra-input-${source} locale-date-input`}
      name={source}
      value={text}
      onChange={(e) => change(e.target.value)}
      onBlur={field.onBlur}
      label={<FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} />}
      placeholder={datePattern(locale, withTime)}
      error={Boolean(error) && (bad || fieldState.invalid)}
      helperText={<InputHelperText error={error} helperText={datePattern(locale, withTime)} />}
      size="small"
      variant="filled"
      inputProps={{ inputMode: 'numeric', 'aria-label': translate(label ?? `resources.${resource}.fields.${source}`) }}
      sx={{ minWidth: withTime ? 200 : 160 }}
    />
  );
}
