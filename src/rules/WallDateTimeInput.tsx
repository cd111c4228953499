/**
 * A date and time typed in the reader's format (dates.ts), read as a wall-clock time of the
 * form's time zone rather than the browser's: the form holds "YYYY-MM-DDTHH:mm" (zonedTime.ts).
 * A date alone means its first minute, or its last for an end.
 */
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { InputHelperText, useInput, useLocaleState, useTranslate, type Validator } from 'react-admin';
import { datePattern, formatDateText, parseDateText, type DateLocale } from '../screens/dates';

const pad = (n: number) => String(n).padStart(2, '0');
const wallOf = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

export function WallDateTimeInput(props: { source: string; label: string; end?: boolean; validate?: Validator | Validator[]; helperText?: string }) {
  const { source, label, end = false } = props;
  const [raLocale] = useLocaleState();
  const locale: DateLocale = raLocale === 'en' ? 'en' : 'zh';
  const translate = useTranslate();
  const { field, fieldState } = useInput({ source, validate: props.validate });
  const [text, setText] = useState(() => formatDateText(field.value, locale, true));
  const [bad, setBad] = useState(false);

  // A value set from outside (loaded rules, a language change) shows in the field.
  useEffect(() => {
    const typed = parseDateText(text, locale, { withTime: true, end });
    if ((typed ? wallOf(typed) : null) !== (field.value ?? null)) setText(formatDateText(field.value, locale, true));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [field.value, locale]);

  const change = (next: string) => {
    setText(next);
    if (next.trim() === '') {
      setBad(false);
      return field.onChange(null);
    }
    const moment = parseDateText(next, locale, { withTime: true, end });
    setBad(!moment);
    if (moment) field.onChange(wallOf(moment));
  };
  const pattern = datePattern(locale, true);
  const error = bad ? translate('app.date.invalid', { pattern }) : fieldState.error?.message;
  return (
    <TextField
      className={`ra-input ra-input-${source} wall-date-input`}
      name={source}
      value={text}
      onChange={(e) => change(e.target.value)}
      onBlur={field.onBlur}
      label={translate(label)}
      placeholder={pattern}
      error={Boolean(error) && (bad || fieldState.invalid)}
      helperText={<InputHelperText error={error} helperText={props.helperText ? translate(props.helperText, { pattern }) : pattern} />}
      size="small"
      variant="filled"
      inputProps={{ inputMode: 'numeric' }}
      sx={{ minWidth: 220 }}
    />
  );
}
