/**
 * API keys: keys for scripts calling this area's API (`Authorization: Bearer <key>`), each named,
 * read-only or read-write, with an optional expiry and allowed addresses. A new one is shown once;
 * the list shows how each begins, when it was last used and from where; revoking one stops it at
 * its next call. The customers' and the operators' areas each have the page, for their own keys.
 */
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { createElement } from 'react';
import { SelectInput, TextInput, maxLength, required, useLocaleState, useTranslate, type HttpError } from 'react-admin';
import type { AreaPage } from '../area/features';
import { useAreaCall } from '../area/useAreaCall';
import { formatDateTime } from '../screens/shownDates';
import type { SecretKind } from '../secrets/kind';
import { SecretsPage, type SecretColumn } from '../secrets/SecretsPage';
import { ConfirmationInput, confirmationOf } from '../security/ConfirmationInput';

export interface ApiKey {
  id: number;
  name: string;
  access: 'read' | 'write';
  prefix: string;
  expires_at: string | null;
  allowed_ips: string[];
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
}

export interface CreatedApiKey {
  id: number;
  name: string;
  key: string;
  access: 'read' | 'write';
}

const apiKeys: SecretKind = { texts: 'api_keys', name: 'api-key', resource: 'api_key' };
const DAY_MS = 86_400_000;
/** Expiry choices, in days (0: never). */
const lifetimes = [0, 30, 90, 365];

/** "203.0.113.7, 198.51.100.0/24" or one per line → the list the server takes. */
const addressesOf = (text: unknown) =>
  String(text ?? '')
    .split(/[\s,;]+/)
    .filter(Boolean);

/** A call every key may make in its area: who it acts as. */
export const exampleCall = (area: 'admin' | 'manage', key: string) =>
  `curl -X POST -H 'Authorization: Bearer ${key}' ${window.location.origin}/api/${area}/me/info`;

function useColumns(): SecretColumn<ApiKey>[] {
  const translate = useTranslate();
  const [raLocale] = useLocaleState();
  const locale = raLocale === 'en' ? 'en' : 'zh';
  return [
    {
      label: 'app.api_keys.name',
      cell: (item) => (
        <>
          <Typography variant="body2" className="api-key-name" data-user-data>
            {item.name}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }} data-user-data>
            {item.prefix}…
          </Typography>
          {item.allowed_ips.length > 0 && (
            <Typography variant="caption" color="text.secondary" component="div">
              {translate('app.api_keys.only_from', { addresses: item.allowed_ips.join(', ') })}
            </Typography>
          )}
        </>
      ),
    },
    { label: 'app.api_keys.access', cell: (item) => translate(`app.api_keys.access_${item.access}`) },
    { label: 'app.api_keys.expires', cell: (item) => (item.expires_at ? formatDateTime(item.expires_at, locale) : translate('app.api_keys.never_expires')) },
    {
      label: 'app.api_keys.last_used',
      className: 'api-key-last-used',
      cell: (item) =>
        item.last_used_at ? (
          <>
            <Typography variant="body2">{formatDateTime(item.last_used_at, locale)}</Typography>
            <Typography variant="caption" color="text.secondary">
              {translate('app.api_keys.from', { ip: item.last_used_ip ?? '' })}
            </Typography>
          </>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {translate('app.api_keys.never_used')}
          </Typography>
        ),
    },
  ];
}

export function ApiKeysPage({ area }: { area: 'admin' | 'manage' }) {
  const call = useAreaCall();
  const translate = useTranslate();
  const columns = useColumns();
  const create = async (values: Record<string, unknown>) => {
    const days = Number(values.lifetime ?? 0);
    try {
      return await call<CreatedApiKey>('POST', 'api_key/create', {
        name: String(values.name ?? '').trim(),
        access: values.access,
        allowed_ips: addressesOf(values.allowed_ips),
        // A key outlives this session: the person confirms it is them.
        confirmation: confirmationOf(values),
        ...(days ? { expires_at: new Date(Date.now() + days * DAY_MS).toISOString() } : {}),
      });
    } catch (error) {
      // "allowed_ips.2": the one field that holds them all.
      const errors = (error as HttpError).body?.errors as Record<string, unknown> | undefined;
      if (errors) for (const field of Object.keys(errors)) if (field.startsWith('allowed_ips.')) errors.allowed_ips = errors[field];
      throw error;
    }
  };
  return (
    <SecretsPage<ApiKey, CreatedApiKey>
      kind={apiKeys}
      title="app.api_keys.title"
      intro={
        <>
          <Typography variant="body2" color="text.secondary">
            {translate(`app.api_keys.intro_${area}`)}
          </Typography>
          <Box component="code" sx={{ display: 'block', my: 1.5, fontSize: '0.85rem' }}>
            Authorization: Bearer mdk_… → /api/{area}/…
          </Box>
        </>
      }
      columns={columns}
      form={
        <>
          <TextInput source="name" label="app.api_keys.name" helperText="app.api_keys.name_hint" validate={[required(), maxLength(64)]} fullWidth autoFocus />
          <SelectInput
            source="access"
            label="app.api_keys.access"
            defaultValue="read"
            validate={required()}
            choices={[
              { id: 'read', name: 'app.api_keys.access_read' },
              { id: 'write', name: 'app.api_keys.access_write' },
            ]}
            fullWidth
          />
          <SelectInput
            source="lifetime"
            label="app.api_keys.expires"
            defaultValue={90}
            choices={lifetimes.map((days) => ({ id: days, name: days ? translate('app.api_keys.in_days', { smart_count: days }) : translate('app.api_keys.never_expires') }))}
            fullWidth
          />
          <TextInput source="allowed_ips" label="app.api_keys.allowed_ips" helperText="app.api_keys.allowed_ips_hint" fullWidth />
          <ConfirmationInput />
        </>
      }
      create={create}
      secretOf={(made) => made.key}
      shown={{
        look: 'pasted',
        maxWidth: 'sm',
        // A call a script can make with it, to try the key at once.
        after: (made) => (
          <>
            <Typography variant="body2" sx={{ mt: 2 }}>
              {translate('app.api_keys.example')}
            </Typography>
            <Box component="pre" data-user-data className="api-key-example" sx={{ fontSize: '0.8rem', p: 1, bgcolor: 'action.hover', borderRadius: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {exampleCall(area, made.key)}
            </Box>
          </>
        ),
      }}
    />
  );
}

/** The page as the customers' and the operators' features list it. */
export const apiKeysPage = (area: 'admin' | 'manage'): AreaPage => ({ path: 'api-keys', label: 'app.api_keys.menu', icon: VpnKeyIcon, element: createElement(ApiKeysPage, { area }) });
