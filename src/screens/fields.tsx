/** How a declared field reads in lists and detail pages, by its kind. */
import { BooleanField, FunctionField, NumberField, ReferenceField, TextField, useRecordContext, useTranslate } from 'react-admin';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useScreenNamed } from './areaScreens';
import { formatBytes } from './bytes';
import { representationOf } from './representation';
import { useShownDates } from './shownDates';
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

/** A record's moment, as the app writes one in the reader's language (shownDates.ts). */
export function DateTimeField({ source }: { source: string; label?: string }) {
  const record = useRecordContext();
  const { dateTime } = useShownDates();
  return (
    <Typography component="span" variant="body2" className="date-time">
      {dateTime(record?.[source])}
    </Typography>
  );
}

/**
 * A value in one piece with a '.' or '@' in it (an address, a domain or host name, an IP) reads
 * whole: no break inside it (one at a hyphen would read as part of it), only after an address's
 * '@' when its column is narrow. Other text breaks at its spaces.
 */
function TextView({ name }: { name: string }) {
  const record = useRecordContext();
  const value = record?.[name];
  if (typeof value !== 'string' || !/^[^\s@]+(@[^\s@]+)?$/.test(value) || !/[@.]/.test(value)) return <TextField data-user-data source={name} />;
  return <WholeAddress value={value} />;
}

/** An address, domain or host name drawn whole, with a break allowed only after an address's '@' (TextView). */
export function WholeAddress({ value }: { value: string }) {
  const at = value.indexOf('@') + 1;
  return (
    <Typography component="span" variant="body2" className="address" data-user-data sx={{ '& > span': { whiteSpace: 'nowrap' } }}>
      {at > 0 && <span>{value.slice(0, at)}</span>}
      {at > 0 && <wbr />}
      <span>{value.slice(at)}</span>
    </Typography>
  );
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
      return <DateTimeField source={name} />;
    case 'bytes':
      return <FunctionField source={name} render={(record) => formatBytes(record[name])} />;
    case 'reference':
      // The referenced record by the field that names it, read as any such field (an address breaks only after its '@').
      if (referenced)
        return (
          <ReferenceField source={name} reference={referenced.name} link={false}>
            <TextView name={representationOf(referenced)} />
          </ReferenceField>
        );
      return <NumberField source={name} options={{ useGrouping: false }} />;
    case 'integer':
      return <NumberField source={name} options={{ useGrouping: false }} />;
    case 'json':
      return <FunctionField source={name} render={(record) => <Json value={record[name]} />} />;
    // Free text is the user's data (marked so: the browser suite's language check skips it).
    case 'longtext':
      return <TextField data-user-data source={name} sx={full ? { whiteSpace: 'pre-wrap' } : { display: 'block', maxWidth: 360, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} />;
    default:
      return <TextView name={name} />;
  }
}
