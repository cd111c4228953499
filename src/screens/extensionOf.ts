/** The special parts of each resource's screens, by declaration name (see extensions.ts). */
import { aliasScreens } from '../aliases';
import { aliasDomainScreens } from '../aliasDomains';
import { domainScreens } from '../domains';
import { mailboxScreens } from '../mailboxes';
import { storageScreens } from '../storage';
import { teamScreens } from '../team';
import type { ScreenExtension } from './extensions';
import type { Screen } from './registry';

const extensions: Record<string, ScreenExtension> = {
  domain: domainScreens,
  email: mailboxScreens,
  alias: aliasScreens,
  alias_domain: aliasDomainScreens,
  storage: storageScreens,
  team_member: teamScreens,
};

export function extensionOf(screen: Pick<Screen, 'declaration'>): ScreenExtension {
  return extensions[screen.declaration.name] ?? {};
}
