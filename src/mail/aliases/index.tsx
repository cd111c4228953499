/** Aliases: one address (or the catch-all @domain) to several destinations, entered as a list. */
import AlternateEmailIcon from '@mui/icons-material/AlternateEmail';
import { TextInput, useRecordContext } from 'react-admin';
import { alias } from '../../../resources/alias';
import type { FieldInputProps, FieldViewProps, ScreenExtension, ScreenFeature } from '../../screens/screen';
import { rules } from '../../screens/inputs';
import { DestinationsInput } from './DestinationsInput';
import { WholeAddress } from '../../screens/fields';

function LocalPartInput({ name, field, mode }: FieldInputProps) {
  return <TextInput source={name} validate={rules(field, mode)} fullWidth helperText="app.alias.local_part_hint" />;
}

/** Destinations one under the other, not "a,b". */
function DestinationsView({ name }: FieldViewProps) {
  const record = useRecordContext();
  if (!record) return null;
  const list = String(record[name] ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  return (
    <span className="destinations" style={{ display: 'inline-flex', flexDirection: 'column' }}>
      {list.map((address) => (
        <WholeAddress key={address} value={address} />
      ))}
    </span>
  );
}

const aliasScreens: ScreenExtension = {
  representation: 'address_unicode',
  columns: (area) => ['address_unicode', 'goto', 'active', ...(area === 'manage' ? ['owner_id'] : []), 'created_at'],
  inputs: { local_part: LocalPartInput, goto: DestinationsInput },
  views: { goto: DestinationsView },
};

export const aliases: ScreenFeature = { declaration: alias, extension: aliasScreens, icon: AlternateEmailIcon };
