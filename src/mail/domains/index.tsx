/** Domains: shown by their Unicode name, with status, DNS records checked live and the verify/suspend buttons. */
import DnsIcon from '@mui/icons-material/Dns';
import { FunctionField, NumberInput, useTranslate } from 'react-admin';
import { domain } from '../../../resources/domain';
import { BytesInput } from '../../screens/BytesInput';
import { FlagInput } from '../../screens/FlagInput';
import type { FieldInputProps, FieldViewProps, ScreenExtension, ScreenFeature } from '../../screens/screen';
import { formatBytes } from '../../screens/bytes';
import { rules } from '../../screens/inputs';
import { DomainActions } from './DomainActions';
import { DomainPanel } from './DomainPanel';
import { DomainReports } from '../../reports';
import { DomainSpam } from '../../spam';
import { DomainCopy } from '../../mailCopy';
import { DomainHealth } from '../../domainHealth/DomainHealth';
import { PendingDomainsNotice } from './PendingNotice';

/** Limits say that 0 means none of the domain's own. */
const LimitInput = ({ name, field, mode }: FieldInputProps) => (
  <NumberInput source={name} validate={rules(field, mode)} fullWidth step={1} defaultValue={mode === 'create' ? 0 : undefined} helperText="app.domain.no_limit" />
);
/** Whether the domain's mailbox owners may sign in at /mail; off ends their sessions. */
const MailboxAreaInput = (props: FieldInputProps) => <FlagInput {...props} helperText="app.mailbox_owner.mailbox_area_hint" />;
const QuotaLimitInput = ({ name, field, mode }: FieldInputProps) => <BytesInput source={name} validate={rules(field, mode)} helperText="app.domain.no_limit" />;

/** A limit of 0 reads "no limit" in lists and views. */
function LimitView({ name, field }: FieldViewProps) {
  const translate = useTranslate();
  const show = (value: unknown) => (!Number(value) ? translate('app.domain.unlimited') : field.kind === 'bytes' ? formatBytes(value) : String(value));
  return <FunctionField source={name} render={(record) => show(record[name])} />;
}

const domainScreens: ScreenExtension = {
  representation: 'name_unicode',
  columns: (area) =>
    area === 'manage'
      ? ['name_unicode', 'owner_id', 'status', 'max_mailboxes', 'max_aliases', 'max_quota', 'created_at']
      : ['name_unicode', 'status', 'verified_at', 'verified_by', 'created_at'],
  views: { max_mailboxes: LimitView, max_aliases: LimitView, max_quota: LimitView },
  inputs: { max_mailboxes: LimitInput, max_aliases: LimitInput, max_quota: QuotaLimitInput, mailbox_area: MailboxAreaInput },
  updatePanel: () => (
    <>
      <DomainPanel />
      <DomainHealth />
      <DomainSpam />
      <DomainCopy />
      <DomainReports />
    </>
  ),
  updateActions: DomainActions,
  listTop: PendingDomainsNotice,
  // A new domain opens on its page, where its DNS records say what to publish.
  afterCreate: (resource, id) => `/${resource}/update?id=${encodeURIComponent(String(id))}`,
};

export const domains: ScreenFeature = { declaration: domain, extension: domainScreens, icon: DnsIcon };
