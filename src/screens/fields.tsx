/** How a declared field reads in lists and detail pages, by its kind. */
import { BooleanField, DateField, FunctionField, NumberField, ReferenceField, TextField, useLocaleState, useTranslate } from 'react-admin';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useScreenNamed } from './areaScreens';
import { formatBytes } from './bytes';
import type { FieldViewProps } from './screen';

export const enumLabelKey = (name: string, value: unknown) => `app.enum.${name}.${String(value)}`;

function EnumText({ name, value }: { name: string; value: unknown }) {
  const translate = useTranslate();
  return <>{value === null || value === undefined ? '' : translate(enumLabelKey(name, value), { _: String(value) })}</>;
}

/** Statuses stand out by colour: green when in service, amber while waiting, red when stopped. */
const statusColours: Record<string, 'success' | 'warning' | 'error' | 'default'> = {
  active: 'success',
  sent: 'success',
  pending: 'warning',
  suspended: 'error',
  disabled: 'error',
  failed: 'error',
  // An order's states.
  pending_payment: 'warning',
  paid: 'success',
  fulfilled: 'success',
  cancelled: 'default',
  expired: 'default',
  refunded: 'error',
};

export function StatusChip({ value }: { value: unknown }) {
  if (value === null || value === undefined) return null;
  return <Chip size="small" className={`status-${String(value)}`} color={statusColours[String(value)] ?? 'default'} label={<EnumText name="status" value={value} />} />;
}

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return null;
  return (
    <Typography component="pre" variant="body2" sx={{ m: 0, fontFamily: 'monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
      {JSON.stringify(value, null, 2)}
    </Typography>
  );
}

/** Dates in the reader's language, not the browser's. */
function DateTime({ name }: { name: string }) {
  const [locale] = useLocaleState();
  return <DateField source={name} showTime locales={locale === 'zh' ? 'zh-CN' : 'en-GB'} />;
}

export function FieldView({ name, field, full }: FieldViewProps) {
  const referenced = useScreenNamed(field.kind === 'reference' ? field.reference : undefined);
  switch (field.kind) {
    case 'boolean':
      return <BooleanField source={name} looseValue />;
    case 'enum':
      if (name === 'status') return <FunctionField source={name} render={(record) => <StatusChip value={record[name]} />} />;
      return <FunctionField source={name} render={(record) => <EnumText name={name} value={record[name]} />} />;
    case 'datetime':
      return <DateTime name={name} />;
    case 'bytes':
      return <FunctionField source={name} render={(record) => formatBytes(record[name])} />;
    case 'reference':
      if (referenced) return <ReferenceField source={name} reference={referenced.name} link={false} />;
      return <NumberField source={name} options={{ useGrouping: false }} />;
    case 'integer':
      return <NumberField source={name} options={{ useGrouping: false }} />;
    case 'json':
      return <FunctionField source={name} render={(record) => <Json value={record[name]} />} />;
    // Free text is the user's data (marked so: the browser suite's language check skips it).
    case 'longtext':
      return <TextField data-user-data source={name} sx={full ? { whiteSpace: 'pre-wrap' } : { display: 'block', maxWidth: 360, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} />;
    default:
      return <TextField data-user-data source={name} />;
  }
}
