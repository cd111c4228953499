/**
 * API keys: keys for scripts calling this area's API (`Authorization: Bearer <key>`), each named,
 * read-only or read-write, with an optional expiry and allowed addresses. A new one is shown once;
 * the list shows how each begins, when it was last used and from where; revoking one stops it at
 * its next call. The customers' and the operators' areas each have the page, for their own keys.
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createElement, useState } from 'react';
import { Button, SelectInput, TextInput, Title, maxLength, required, useLocaleState, useNotify, useTranslate, type HttpError } from 'react-admin';
import type { AreaPage } from '../area/features';
import { CallDialog } from '../area/CallDialog';
import { SectionCard } from '../area/SectionCard';
import { useAreaCall } from '../area/useAreaCall';
import { confirm } from '../dialogs/store';
import { formatDateText } from '../screens/dates';
import { NewKeyDialog, type CreatedApiKey } from './NewKeyDialog';

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

const KEY = ['api-keys'];
const DAY_MS = 86_400_000;
/** Expiry choices, in days (0: never). */
const lifetimes = [0, 30, 90, 365];

/** "203.0.113.7, 198.51.100.0/24" or one per line → the list the server takes. */
const addressesOf = (text: unknown) =>
  String(text ?? '')
    .split(/[\s,;]+/)
    .filter(Boolean);

function RevokeButton({ item }: { item: ApiKey }) {
  const call = useAreaCall();
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const revoke = async () => {
    if (!(await confirm(translate('app.api_keys.revoke_confirm', { name: item.name }), 'DELETE'))) return;
    try {
      await call('POST', 'api_key/delete', { id: item.id });
      notify('app.api_keys.revoked', { type: 'success', messageArgs: { name: item.name } });
    } catch {
      // The WARNING alert has said why.
    }
    await queryClient.invalidateQueries({ queryKey: KEY });
  };
  return (
    <Button label="app.api_keys.revoke" onClick={revoke} color="error" className="api-key-revoke">
      <DeleteIcon />
    </Button>
  );
}

export function ApiKeysPage({ area }: { area: 'admin' | 'manage' }) {
  const call = useAreaCall();
  const translate = useTranslate();
  const [raLocale] = useLocaleState();
  const locale = raLocale === 'en' ? 'en' : 'zh';
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey>();
  const { data } = useQuery({ queryKey: KEY, queryFn: () => call<{ list: ApiKey[]; total: number }>('GET', 'api_key/list', { page_size: 100 }) });
  const create = async (values: Record<string, unknown>) => {
    const days = Number(values.lifetime ?? 0);
    try {
      return await call<CreatedApiKey>('POST', 'api_key/create', {
        name: String(values.name ?? '').trim(),
        access: values.access,
        allowed_ips: addressesOf(values.allowed_ips),
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
    <Box sx={{ mt: 2 }} className="api-keys-page">
      <Title title="app.api_keys.title" />
      <SectionCard title="app.api_keys.title">
        <Typography variant="body2" color="text.secondary">
          {translate(`app.api_keys.intro_${area}`)}
        </Typography>
        <Box component="code" sx={{ display: 'block', my: 1.5, fontSize: '0.85rem' }}>
          Authorization: Bearer mdk_… → /api/{area}/…
        </Box>
        <Button label="app.api_keys.create" onClick={() => setCreating(true)} variant="contained" className="api-key-create">
          <AddIcon />
        </Button>
        {data && data.list.length === 0 && (
          <Typography variant="body2" sx={{ mt: 2 }} className="api-keys-empty">
            {translate('app.api_keys.none')}
          </Typography>
        )}
        {data && data.list.length > 0 && (
          <Box sx={{ overflowX: 'auto', mt: 2 }}>
            <Table size="small" className="api-keys-list">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('app.api_keys.name')}</TableCell>
                  <TableCell>{translate('app.api_keys.access')}</TableCell>
                  <TableCell>{translate('app.api_keys.expires')}</TableCell>
                  <TableCell>{translate('app.api_keys.last_used')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {data.list.map((item) => (
                  <TableRow key={item.id} className="api-key-row">
                    <TableCell>
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
                    </TableCell>
                    <TableCell>{translate(`app.api_keys.access_${item.access}`)}</TableCell>
                    <TableCell>{item.expires_at ? formatDateText(item.expires_at, locale, true) : translate('app.api_keys.never_expires')}</TableCell>
                    <TableCell className="api-key-last-used">
                      {item.last_used_at ? (
                        <>
                          <Typography variant="body2">{formatDateText(item.last_used_at, locale, true)}</Typography>
                          <Typography variant="caption" color="text.secondary">
                            {translate('app.api_keys.from', { ip: item.last_used_ip ?? '' })}
                          </Typography>
                        </>
                      ) : (
                        <Typography variant="body2" color="text.secondary">
                          {translate('app.api_keys.never_used')}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell align="right">
                      <RevokeButton item={item} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </SectionCard>
      <CallDialog<CreatedApiKey>
        open={creating}
        title="app.api_keys.create"
        submitLabel="app.api_keys.make"
        className="api-key-create-dialog"
        onClose={() => setCreating(false)}
        call={create}
        onDone={(answer) => {
          setCreating(false);
          setCreated(answer);
          void queryClient.invalidateQueries({ queryKey: KEY });
        }}
      >
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
      </CallDialog>
      <NewKeyDialog created={created} area={area} onClose={() => setCreated(undefined)} />
    </Box>
  );
}

/** The page as the customers' and the operators' features list it. */
export const apiKeysPage = (area: 'admin' | 'manage'): AreaPage => ({ path: 'api-keys', label: 'app.api_keys.menu', icon: VpnKeyIcon, element: createElement(ApiKeysPage, { area }) });
