/** Who must have a second factor: a customer's logins, its own included, and its mailbox owners (the customer account decides), every operator (a superadmin decides). */
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { SectionCard } from '../area/SectionCard';
import { useAreaCall } from '../area/useAreaCall';
import { useAccount } from '../customer/useAccount';

function PolicySwitch({ label, hint, checked, disabled, onChange, name = 'second_factor_required' }: { label: string; hint: string; checked: boolean; disabled: boolean; onChange: (on: boolean) => Promise<void>; name?: string }) {
  const translate = useTranslate();
  const [saving, setSaving] = useState(false);
  const change = async (on: boolean) => {
    setSaving(true);
    try {
      await onChange(on);
    } catch {
      // The WARNING alert has said why.
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <FormControlLabel control={<Switch checked={checked} disabled={disabled || saving} onChange={(e) => change(e.target.checked)} name={name} />} label={translate(label)} />
      <Typography variant="body2" color="text.secondary">
        {translate(hint)}
      </Typography>
    </>
  );
}

/** The customer account's switches for its logins (its own included) and its mailbox owners (team members do not see them). */
export function TeamPolicyCard() {
  const call = useAreaCall();
  const queryClient = useQueryClient();
  const { data: account } = useAccount();
  const isOwner = Boolean(account?.is_owner);
  const { data } = useQuery({ queryKey: ['team-policy'], enabled: isOwner, queryFn: () => call<{ required: boolean; you_must_enrol: boolean }>('GET', 'second_factor/team_policy') });
  const { data: mailboxes } = useQuery({ queryKey: ['mailbox-policy'], enabled: isOwner, queryFn: () => call<{ required: boolean }>('GET', 'second_factor/mailbox_policy') });
  const translate = useTranslate();
  if (!isOwner || !data || !mailboxes) return null;
  return (
    <SectionCard title="app.second_factor.title" className="team-policy-card">
      <PolicySwitch
        label="app.second_factor.team_policy"
        hint="app.second_factor.team_policy_hint"
        checked={data.required}
        disabled={false}
        onChange={async (required) => {
          queryClient.setQueryData(['team-policy'], await call('POST', 'second_factor/update_team_policy', { required }));
        }}
      />
      {data.you_must_enrol && (
        <Typography variant="body2" color="warning.main" className="team-policy-you-enrol">
          {translate('app.second_factor.team_policy_you_enrol')}
        </Typography>
      )}
      <PolicySwitch
        name="mailbox_second_factor_required"
        label="app.second_factor.mailbox_policy"
        hint="app.second_factor.mailbox_policy_hint"
        checked={mailboxes.required}
        disabled={false}
        onChange={async (required) => {
          queryClient.setQueryData(['mailbox-policy'], await call('POST', 'second_factor/update_mailbox_policy', { required }));
        }}
      />
    </SectionCard>
  );
}

/** Every operator reads the operators' rule; a superadmin changes it. */
export function OperatorsPolicyCard() {
  const call = useAreaCall();
  const queryClient = useQueryClient();
  const { data: me } = useQuery({ queryKey: ['me', 'info'], queryFn: () => call<{ role: string }>('POST', 'me/info') });
  const { data } = useQuery({ queryKey: ['operators-policy'], queryFn: () => call<{ operators_required: boolean }>('GET', 'second_factor/policy') });
  if (!data || !me) return null;
  return (
    <SectionCard title="app.second_factor.title" className="operators-policy-card">
      <PolicySwitch
        label="app.second_factor.operators_policy"
        hint="app.second_factor.operators_policy_hint"
        checked={data.operators_required}
        disabled={me.role !== 'superadmin'}
        onChange={async (operators_required) => {
          queryClient.setQueryData(['operators-policy'], await call('POST', 'second_factor/update_policy', { operators_required }));
        }}
      />
    </SectionCard>
  );
}
