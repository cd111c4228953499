/** A byte size typed as people think of it: a number and a unit (MiB or GiB); the form holds bytes. */
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { FieldTitle, InputHelperText, useInput, useResourceContext, useTranslate, type Validator } from 'react-admin';
import { GiB, MiB, formatBytes } from './bytes';

const units = [
  { size: MiB, label: 'MiB' },
  { size: GiB, label: 'GiB' },
];

/** The size between min and max bytes, said in readable units. */
export function bytesBetween(min?: number, max?: number): Validator {
  return (value: unknown) => {
    if (value === null || value === undefined || value === '') return undefined;
    const n = Number(value);
    if (min !== undefined && n < min) return { message: 'app.bytes.at_least', args: { size: formatBytes(min) } };
    if (max !== undefined && n > max) return { message: 'app.bytes.at_most', args: { size: formatBytes(max) } };
    return undefined;
  };
}

export function BytesInput({ source, validate, label, helperText }: { source: string; validate?: Validator[]; label?: string; helperText?: string }) {
  const resource = useResourceContext();
  const translate = useTranslate();
  const { field, fieldState, isRequired } = useInput({ source, validate });
  const bytes = field.value === null || field.value === undefined || field.value === '' ? null : Number(field.value);
  const [unit, setUnit] = useState(() => (bytes && bytes >= GiB && bytes % GiB === 0 ? GiB : MiB));
  const [text, setText] = useState(() => (bytes === null ? '' : String(+(bytes / unit).toFixed(3))));
  const write = (value: string, size: number) => field.onChange(value.trim() === '' ? null : Math.round(Number(value) * size));
  const error = fieldState.error;
  // Says the size in the best unit when the typed one reads differently (1536 MiB → 1.5 GiB).
  const unitLabel = units.find((u) => u.size === unit)?.label;
  const readable = bytes !== null && formatBytes(bytes) !== `${text} ${unitLabel}` ? formatBytes(bytes) : ' ';
  return (
    <TextField
      className={`ra-input ra-input-${source} bytes-input`}
      name={source}
      type="number"
      fullWidth
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        write(e.target.value, unit);
      }}
      onBlur={field.onBlur}
      label={<FieldTitle label={label} source={source} resource={resource} isRequired={isRequired} />}
      error={Boolean(error)}
      helperText={<InputHelperText error={error?.message} helperText={helperText ?? readable} />}
      slotProps={{
        htmlInput: { min: 0, step: 'any' },
        input: {
          endAdornment: (
            <Select
              variant="standard"
              disableUnderline
              value={unit}
              inputProps={{ 'aria-label': translate('app.form.unit'), className: `unit-${source}` }}
              onChange={(e) => {
                const size = Number(e.target.value);
                setUnit(size);
                write(text, size);
              }}
            >
              {units.map((u) => (
                <MenuItem key={u.label} value={u.size}>
                  {u.label}
                </MenuItem>
              ))}
            </Select>
          ),
        },
      }}
    />
  );
}
