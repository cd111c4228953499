/**
 * Forwarding: up to ten addresses, with or without a copy kept in the mailbox. The mail server
 * rewrites the sender (SRS) so that forwarded mail still passes SPF; the API refuses the
 * mailbox's own addresses (no loops).
 */
import Alert from '@mui/material/Alert';
import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { BooleanInput, Form, SaveButton, useNotify, useTranslate } from 'react-admin';
import { submitCall } from '../area/formCall';
import { inlineErrorsOnly } from '../area/forms';
import { SectionCard } from '../area/SectionCard';
import { AddressListInput } from './AddressListInput';
import { LastChange } from './RuleStatus';
import type { Forwarding, Rules } from './rulesApi';
import { MAX_FORWARD_ADDRESSES } from '../../resources/mailbox_rule';

const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface Values {
  enabled: boolean;
  addresses: string[];
  keep_copy: boolean;
}

export const cleanAddresses = (list: unknown) => (Array.isArray(list) ? list.map((a) => String(a).trim()).filter(Boolean) : []);

export function validateForwarding(values: Values): Record<string, string> {
  const addresses = cleanAddresses(values.addresses);
  if (values.enabled && addresses.length === 0) return { addresses: 'app.rules.fwd.none' };
  if (addresses.some((a) => !ADDRESS.test(a))) return { addresses: 'app.rules.fwd.bad_address' };
  if (new Set(addresses.map((a) => a.toLowerCase())).size !== addresses.length) return { addresses: 'app.rules.fwd.duplicate' };
  if (addresses.length > MAX_FORWARD_ADDRESSES) return { addresses: 'app.rules.fwd.too_many' };
  return {};
}

function StateNotice({ forwarding }: { forwarding: Forwarding }) {
  const translate = useTranslate();
  const on = forwarding.enabled && forwarding.addresses.length > 0;
  const text = !on
    ? translate('app.rules.fwd.state.off')
    : translate(forwarding.keep_copy ? 'app.rules.fwd.state.on_keep' : 'app.rules.fwd.state.on_no_copy', { addresses: forwarding.addresses.join(', ') });
  return (
    <Alert severity={on ? 'success' : 'info'} sx={{ mb: 2, overflowWrap: 'anywhere' }} className={`forwarding-state forwarding-state-${on ? 'on' : 'off'}`}>
      {text}
    </Alert>
  );
}

export function ForwardingCard({ rules, save }: { rules: Rules; save: (values: Forwarding) => Promise<unknown> }) {
  const notify = useNotify();
  const record = useMemo(
    () => ({ enabled: Boolean(rules.forwarding.enabled), addresses: rules.forwarding.addresses?.length ? rules.forwarding.addresses : [''], keep_copy: rules.forwarding.keep_copy !== false }),
    [rules],
  );
  const submit = (values: Record<string, unknown>) =>
    submitCall(
      () => save({ enabled: Boolean(values.enabled), addresses: cleanAddresses(values.addresses), keep_copy: Boolean(values.keep_copy) }),
      () => notify('app.rules.fwd.saved', { type: 'success' }),
    );
  return (
    <SectionCard title="app.rules.fwd.title" className="forwarding-card">
      <StateNotice forwarding={rules.forwarding} />
      <Form {...inlineErrorsOnly} record={record} onSubmit={submit} validate={(values) => validateForwarding(values as Values)}>
        <BooleanInput source="enabled" label="app.rules.fwd.enabled" />
        <AddressListInput source="addresses" label="app.rules.fwd.addresses" max={MAX_FORWARD_ADDRESSES} helperText="app.rules.fwd.addresses_hint" />
        <KeepCopyInput />
        <SaveButton label="ra.action.save" />
      </Form>
      <LastChange rules={rules} />
    </SectionCard>
  );
}

/** "Keep a copy", whose help says what the switch does as it is now set (it read "Off: …" also when on). */
function KeepCopyInput() {
  const keep = useWatch({ name: 'keep_copy' });
  return <BooleanInput source="keep_copy" label="app.rules.fwd.keep_copy" helperText={keep ? 'app.rules.fwd.keep_copy_hint_on' : 'app.rules.fwd.keep_copy_hint'} className="forwarding-keep-copy" />;
}
