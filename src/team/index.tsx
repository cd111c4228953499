/** Team members (/admin/admin): the domains each may manage, picked from the customer's domains. */
import { AutocompleteArrayInput, ChipField, ReferenceArrayField, ReferenceArrayInput, SingleFieldList } from 'react-admin';
import type { FieldInputProps, ScreenExtension } from '../screens/extensions';

function DomainsInput({ name }: FieldInputProps) {
  return (
    <ReferenceArrayInput source={name} reference="domain" perPage={100}>
      <AutocompleteArrayInput fullWidth filterToQuery={(q) => ({ q })} helperText="app.team.domains_hint" />
    </ReferenceArrayInput>
  );
}

function DomainsView({ name }: { name: string }) {
  return (
    <ReferenceArrayField source={name} reference="domain">
      <SingleFieldList linkType={false}>
        <ChipField source="name_unicode" size="small" />
      </SingleFieldList>
    </ReferenceArrayField>
  );
}

export const teamScreens: ScreenExtension = {
  inputs: { domain_ids: DomainsInput },
  views: { domain_ids: DomainsView },
};
