/** Alias domains: both domains are chosen from the customer's own (the generic reference pickers); listed by their Unicode names. */
import type { ScreenExtension } from '../../screens/extensions';

export const aliasDomainScreens: ScreenExtension = {
  representation: 'alias_domain_unicode',
  columns: (area) => ['alias_domain_unicode', 'target_domain_unicode', 'active', ...(area === 'manage' ? ['owner_id'] : []), 'created_at'],
};
