/** Domains: shown by their Unicode name, with status, DNS records checked live and the verify/suspend buttons. */
import { NumberInput } from 'react-admin';
import { BytesInput } from '../screens/BytesInput';
import type { FieldInputProps, ScreenExtension } from '../screens/extensions';
import { rules } from '../screens/inputs';
import { DomainActions } from './DomainActions';
import { DomainPanel } from './DomainPanel';

/** Limits say that 0 means none of the domain's own. */
const LimitInput = ({ name, field, mode }: FieldInputProps) => (
  <NumberInput source={name} validate={rules(field, mode)} fullWidth step={1} defaultValue={mode === 'create' ? 0 : undefined} helperText="app.domain.no_limit" />
);
const QuotaLimitInput = ({ name, field, mode }: FieldInputProps) => <BytesInput source={name} validate={rules(field, mode)} helperText="app.domain.no_limit" />;

export const domainScreens: ScreenExtension = {
  representation: 'name_unicode',
  columns: (area) =>
    area === 'manage'
      ? ['name_unicode', 'owner_id', 'status', 'verified_at', 'max_mailboxes', 'max_aliases', 'max_quota', 'created_at']
      : ['name_unicode', 'status', 'verified_at', 'verified_by', 'created_at'],
  inputs: { max_mailboxes: LimitInput, max_aliases: LimitInput, max_quota: QuotaLimitInput },
  updatePanel: DomainPanel,
  updateActions: DomainActions,
};
