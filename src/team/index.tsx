/**
 * Team members (/admin/admin) and their invitations (/admin/team_invitation). A new member is
 * invited: the form takes the address, name and domains, the invitee chooses the password,
 * and the page says "Invitation sent to …" whatever the address (it never tells whether it
 * has an account). Pending invitations are listed; their page resends or revokes them.
 */
import GroupIcon from '@mui/icons-material/Group';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import {
  AutocompleteArrayInput,
  Button,
  ChipField,
  Link,
  ReferenceArrayField,
  ReferenceArrayInput,
  SingleFieldList,
  TextInput,
  useBasename,
  useGetList,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { teamInvitation } from '../../resources/team_invitation';
import { teamMember } from '../../resources/team_member';
import { useAreaCall } from '../area/useAreaCall';
import type { FieldInputProps, FieldViewProps, ScreenExtension, ScreenFeature } from '../screens/screen';
import { FieldView } from '../screens/fields';
import { rules } from '../screens/inputs';

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

/** The address is set once, by the invitation. */
function InviteEmailInput({ name, field, mode }: FieldInputProps) {
  return <TextInput source={name} validate={rules(field, mode)} fullWidth type="email" helperText="app.team.invite_hint" />;
}

/** Above the members: how many invitations are still waiting, with the way to them. */
function PendingInvitationsNotice() {
  const translate = useTranslate();
  const basename = useBasename();
  const { total } = useGetList('team_invitation', { pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'DESC' } });
  if (!total) return null;
  return (
    <Alert severity="info" sx={{ m: 1 }} className="pending-invitations">
      <Link to={`${basename}/team_invitation`}>{translate('app.team.pending_count', { smart_count: total })}</Link>
    </Alert>
  );
}

const memberScreens: ScreenExtension = {
  inputs: { domain_ids: DomainsInput, email: InviteEmailInput },
  views: { domain_ids: DomainsView },
  // The invitee chooses the password; a member starts active.
  hiddenInputs: (_area, mode) => (mode === 'create' ? ['password', 'status'] : []),
  listTop: PendingInvitationsNotice,
  created: (data) => ({ message: 'app.team.invitation_sent', args: { email: data.email } }),
  // To the pending invitations, where the new one waits to be accepted.
  afterCreate: () => '/team_invitation',
};

/** The link's end, and "Expired" once it has passed (resending gives a new link). */
function ExpiresView(props: FieldViewProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  const expired = typeof record?.[props.name] === 'string' && Date.parse(String(record[props.name])) <= Date.now();
  return (
    <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
      <FieldView {...props} />
      {expired && <Chip size="small" label={translate('app.team.expired')} className="invitation-expired" />}
    </span>
  );
}

function ResendButton() {
  const record = useRecordContext();
  const call = useAreaCall();
  const notify = useNotify();
  const refresh = useRefresh();
  if (!record) return null;
  const resend = async () => {
    await call('POST', 'team_invitation/resend', { id: record.id });
    notify('app.team.resent', { type: 'info', messageArgs: { email: record.email } });
    refresh();
  };
  return (
    <Button label="app.team.resend" onClick={resend} className="invitation-resend">
      <SendIcon />
    </Button>
  );
}

function PendingHint() {
  const translate = useTranslate();
  return (
    <Alert severity="info" sx={{ m: 1 }}>
      {translate('app.team.pending_hint')}
    </Alert>
  );
}

const invitationScreens: ScreenExtension = {
  views: { domain_ids: DomainsView, expires_at: ExpiresView },
  listTop: PendingHint,
  viewActions: ResendButton,
};

export const teamMembers: ScreenFeature = { declaration: teamMember, extension: memberScreens, icon: GroupIcon };
export const teamInvitations: ScreenFeature = { declaration: teamInvitation, extension: invitationScreens, icon: GroupAddIcon };
