/** Domains: shown by their Unicode name, with status, DNS records checked live and the verify/suspend buttons. */
import type { ScreenExtension } from '../screens/extensions';
import { DomainActions } from './DomainActions';
import { DomainPanel } from './DomainPanel';

export const domainScreens: ScreenExtension = {
  representation: 'name_unicode',
  columns: (area) =>
    area === 'manage'
      ? ['name_unicode', 'owner_id', 'status', 'verified_at', 'max_mailboxes', 'max_aliases', 'max_quota', 'created_at']
      : ['name_unicode', 'status', 'verified_at', 'verified_by', 'created_at'],
  updatePanel: DomainPanel,
  updateActions: DomainActions,
};
