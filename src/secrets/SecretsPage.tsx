/**
 * A page of secrets made for programs: API keys (src/apiKeys) and mailbox app passwords
 * (src/appPasswords). One is made in a small form and shown once; the list shows each by its
 * name, never the secret; revoking one asks first. What differs (the form, the columns, what
 * follows the secret) comes from the page that uses it.
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ComponentProps, type ReactNode } from 'react';
import { Button, Title, useNotify, useTranslate } from 'react-admin';
import { CallDialog } from '../area/CallDialog';
import { SectionCard } from '../area/SectionCard';
import { useAreaCall } from '../area/useAreaCall';
import { confirm } from '../dialogs/store';
import type { SecretKind } from './kind';
import { ShownOnceDialog } from './ShownOnceDialog';

interface Listed {
  id: number;
  name: string;
}

export interface SecretColumn<Item> {
  /** The heading's text key. */
  label: string;
  className?: string;
  cell: (item: Item) => ReactNode;
}

/** The list's query: `api-keys`, `app-passwords`. */
const queryKeyOf = (kind: SecretKind) => [`${kind.name}s`];

function RevokeButton({ kind, item }: { kind: SecretKind; item: Listed }) {
  const call = useAreaCall();
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const revoke = async () => {
    // Titled by what it does: "Revoke “name”" (not "Delete").
    if (!(await confirm(translate(`app.${kind.texts}.revoke_confirm`, { name: item.name }), `${translate(`app.${kind.texts}.revoke`)} “${item.name}”`))) return;
    try {
      await call('POST', `${kind.resource}/delete`, { id: item.id });
      notify(`app.${kind.texts}.revoked`, { type: 'success', messageArgs: { name: item.name } });
    } catch {
      // The WARNING alert has said why.
    }
    // Refused or not, the list as it is now (one revoked meanwhile elsewhere is gone).
    await queryClient.invalidateQueries({ queryKey: queryKeyOf(kind) });
  };
  return (
    <Button label={`app.${kind.texts}.revoke`} onClick={revoke} color="error" className={`${kind.name}-revoke`}>
      <DeleteIcon />
    </Button>
  );
}

export function SecretsPage<Item extends Listed, Made extends Listed>(props: {
  kind: SecretKind;
  /** The page's title (app bar and browser tab). */
  title: string;
  /** What the secrets are for, above the create button. */
  intro: ReactNode;
  columns: SecretColumn<Item>[];
  /** The create dialog's fields, and its call. */
  form: ReactNode;
  create: (values: Record<string, unknown>) => Promise<Made>;
  /** The secret of the one just made, and how the shown-once dialog shows it. */
  secretOf: (made: Made) => string;
  shown: Pick<ComponentProps<typeof ShownOnceDialog>, 'look' | 'maxWidth'> & { after?: (made: Made) => ReactNode };
}) {
  const { kind, title, intro, columns, form, create, secretOf, shown } = props;
  const call = useAreaCall();
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [made, setMade] = useState<Made>();
  const { data } = useQuery({ queryKey: queryKeyOf(kind), queryFn: () => call<{ list: Item[]; total: number }>('GET', `${kind.resource}/list`, { page_size: 100 }) });
  const texts = `app.${kind.texts}`;
  return (
    <Box sx={{ mt: 2 }} className={`${kind.name}s-page`}>
      <Title title={title} />
      <SectionCard title={`${texts}.title`}>
        {intro}
        <Button label={`${texts}.create`} onClick={() => setCreating(true)} variant="contained" className={`${kind.name}-create`}>
          <AddIcon />
        </Button>
        {data && data.list.length === 0 && (
          <Typography variant="body2" sx={{ mt: 2 }} className={`${kind.name}s-empty`}>
            {translate(`${texts}.none`)}
          </Typography>
        )}
        {data && data.list.length > 0 && (
          <Box sx={{ overflowX: 'auto', mt: 2 }}>
            <Table size="small" className={`${kind.name}s-list`}>
              <TableHead>
                <TableRow>
                  {columns.map((column) => (
                    <TableCell key={column.label}>{translate(column.label)}</TableCell>
                  ))}
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {data.list.map((item) => (
                  <TableRow key={item.id} className={`${kind.name}-row`}>
                    {columns.map((column) => (
                      <TableCell key={column.label} className={column.className}>
                        {column.cell(item)}
                      </TableCell>
                    ))}
                    <TableCell align="right">
                      <RevokeButton kind={kind} item={item} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </SectionCard>
      <CallDialog<Made>
        open={creating}
        title={`${texts}.create`}
        submitLabel={`${texts}.make`}
        className={`${kind.name}-create-dialog`}
        onClose={() => setCreating(false)}
        call={create}
        onDone={(answer) => {
          setCreating(false);
          setMade(answer);
          void queryClient.invalidateQueries({ queryKey: queryKeyOf(kind) });
        }}
      >
        {form}
      </CallDialog>
      <ShownOnceDialog kind={kind} name={made?.name} secret={made && secretOf(made)} onClose={() => setMade(undefined)} look={shown.look} maxWidth={shown.maxWidth}>
        {made && shown.after?.(made)}
      </ShownOnceDialog>
    </Box>
  );
}
