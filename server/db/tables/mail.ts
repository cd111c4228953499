/** Hosted mail: what Postfix and Dovecot read (domains, mailboxes, aliases, alias domains), the usage Dovecot writes back, deleted mailboxes. */
import type { Generated } from 'kysely';
import type { MailStoreState, Placement } from '../../../resources/mail_store.js';
import type { Id, Timestamp } from './columns.js';

export interface DomainRow {
  id: Id;
  owner_id: number;
  name: string;
  name_unicode: string;
  status: 'pending' | 'active' | 'suspended';
  verified_at: Timestamp | null;
  verified_by: 'dns' | 'operator' | null;
  verify_token: string;
  max_mailboxes: number;
  max_aliases: number;
  max_quota: number;
  dkim_selector: string;
  dkim_private_key: string;
  dkim_public_key: string;
  // DKIM rotation: the next key, published beside the current one before the switch (0007).
  dkim_next_selector: string | null;
  dkim_next_private_key: string | null;
  dkim_next_public_key: string | null;
  note: string;
  /** The DMARC policy the customer chose (0026, server/reports); null: the proposal as before (quarantine). */
  dmarc_policy: 'none' | 'quarantine' | 'reject' | null;
  // The customer lets this domain's mailboxes use the mailbox owners' area (0018).
  mailbox_area: Generated<number>;
  // Domain health (0027): the MTA-STS policy's mode, and when the DNS watch next looks and last looked.
  mta_sts_mode: Generated<'testing' | 'enforce'>;
  dns_watch_at: Generated<Timestamp>;
  dns_checked_at: Timestamp | null;
  // What the mail_* views read (0017), kept by triggers; never written by the panel.
  /** 1 while the domain is active and verified and its customer active. */
  receives_mail: Generated<number>;
  /** While this is an active alias domain of a domain that receives mail: that domain's name. */
  alias_target: Generated<string | null>;
  /** The store an operator chose for the domain's new mailboxes (0031); null: the placement rule's. */
  mail_store_id: Generated<number | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MailboxRow {
  id: Id;
  owner_id: number;
  domain_id: number;
  local_part: string;
  address: string;
  address_unicode: string;
  password_hash: string;
  name: string;
  quota: number;
  active: number;
  delivery_checked_at: Timestamp | null;
  // Mail programs must use app passwords; the main password still signs in to the area (0018).
  app_passwords_only: Generated<number>;
  // The store its mail lives on, and why it was placed there (0031).
  store_id: Generated<number>;
  placement: Generated<Placement>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MailStoreRow {
  id: Id;
  name: string;
  address: string;
  state: Generated<MailStoreState>;
  capacity: number | null;
  used_bytes: Generated<number>;
  mailboxes: Generated<number>;
  measured_at: Timestamp | null;
  note: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MailboxUsageRow {
  address: string;
  bytes: number;
  messages: number;
}

export interface AliasRow {
  id: Id;
  owner_id: number;
  domain_id: number;
  local_part: string;
  address: string;
  address_unicode: string;
  goto: string;
  active: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AliasDomainRow {
  id: Id;
  owner_id: number;
  alias_domain_id: number;
  target_domain_id: number;
  active: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type DeletedMailboxState = 'pending' | 'purging' | 'purged' | 'archived' | 'restored';

export interface DeletedMailboxRow {
  id: Id;
  mailbox_id: number;
  owner_id: number;
  domain_id: number;
  domain: string;
  local_part: string;
  address: string;
  address_unicode: string;
  name: string;
  quota: number;
  active: number;
  password_hash: string;
  delivery_checked_at: Timestamp | null;
  mailbox_created_at: Timestamp;
  used_bytes: number;
  used_messages: number;
  state: DeletedMailboxState;
  deleted_at: Timestamp;
  deleted_by_type: string;
  deleted_by: string;
  purge_after: Timestamp;
  finished_at: Timestamp | null;
  finished_by: string | null;
  outcome: 'removed' | 'archived' | 'nothing_on_disk' | null;
  store_path: string;
  archive_path: string | null;
  /** The mail store its mail is on, and why it was placed there: a restore brings it back there (0031). */
  store_id: Generated<number>;
  placement: Generated<Placement>;
}

export interface MailTables {
  domain: DomainRow;
  mailbox: MailboxRow;
  mail_store: MailStoreRow;
  mailbox_usage: MailboxUsageRow;
  alias: AliasRow;
  alias_domain: AliasDomainRow;
  deleted_mailbox: DeletedMailboxRow;
}
