/** Each declared resource paired with what is special about it on the server. */
import * as declared from '../../resources/index.js';
import type { ResourceDeclaration } from '../../resources/define.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';
import { customerBehaviour, teamMemberBehaviour } from './customer.js';
import { emailTemplateBehaviour } from './email_template.js';
import { operatorBehaviour } from './operator.js';
import { aliasBehaviour } from './alias.js';
import { aliasDomainBehaviour } from './alias_domain.js';
import { domainBehaviour } from './domain.js';
import { mailboxBehaviour } from './mailbox.js';
import { storageBehaviour } from './storage.js';
// Shop.
import { activityBehaviour } from './activity.js';
import { productBehaviour } from './product.js';

const behaviours: Record<string, ResourceBehaviour> = {
  [declared.operator.name]: operatorBehaviour,
  [declared.customer.name]: customerBehaviour,
  [declared.teamMember.name]: teamMemberBehaviour,
  [declared.emailTemplate.name]: emailTemplateBehaviour,
  [declared.domain.name]: domainBehaviour,
  [declared.mailbox.name]: mailboxBehaviour,
  [declared.alias.name]: aliasBehaviour,
  [declared.aliasDomain.name]: aliasDomainBehaviour,
  [declared.storage.name]: storageBehaviour,
  // Shop.
  [declared.product.name]: productBehaviour,
  [declared.activity.name]: activityBehaviour,
};

export const serverResources: { declaration: ResourceDeclaration; behaviour: ResourceBehaviour }[] = declared.resources.map(
  (declaration) => ({ declaration, behaviour: behaviours[declaration.name] ?? {} }),
);
