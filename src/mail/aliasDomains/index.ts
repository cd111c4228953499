/** Alias domains: both domains are chosen from the customer's own (the generic reference pickers); listed by their Unicode names. */
import ForwardToInboxIcon from '@mui/icons-material/ForwardToInbox';
import { aliasDomain } from '../../../resources/alias_domain';
import type { ScreenFeature } from '../../screens/screen';

export const aliasDomains: ScreenFeature = {
  declaration: aliasDomain,
  icon: ForwardToInboxIcon,
  extension: {
    representation: 'alias_domain_unicode',
    columns: (area) => ['alias_domain_unicode', 'target_domain_unicode', 'active', ...(area === 'manage' ? ['owner_id'] : []), 'created_at'],
  },
};
