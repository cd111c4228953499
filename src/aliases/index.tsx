/** Aliases: one address (or the catch-all @domain) to several destinations, entered as a list. */
import { TextInput } from 'react-admin';
import type { FieldInputProps, ScreenExtension } from '../screens/extensions';
import { rules } from '../screens/inputs';
import { DestinationsInput } from './DestinationsInput';

function LocalPartInput({ name, field, mode }: FieldInputProps) {
  return <TextInput source={name} validate={rules(field, mode)} fullWidth helperText="app.alias.local_part_hint" />;
}

export const aliasScreens: ScreenExtension = {
  representation: 'address_unicode',
  columns: (area) => ['address_unicode', 'goto', 'active', ...(area === 'manage' ? ['owner_id'] : []), 'created_at'],
  inputs: { local_part: LocalPartInput, goto: DestinationsInput },
};
