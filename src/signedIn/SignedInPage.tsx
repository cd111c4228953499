/**
 * Where you are signed in: the person's live sessions in this area (device and browser, address,
 * when they began and were last used), this one marked; any other can be ended, or all of them.
 * The same page in the customers', operators' and mailbox owners' areas (the area's own calls).
 */
import DevicesIcon from '@mui/icons-material/Devices';
import LogoutIcon from '@mui/icons-material/Logout';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createElement } from 'react';
import { Button, Title, useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { AreaPage } from '../area/features';
import { SectionCard } from '../area/SectionCard';
import { useAreaCall } from '../area/useAreaCall';
import { confirm } from '../dialogs/store';
import { formatDateTime } from '../screens/shownDates';

export interface SignedInSession {
  id: number;
  device: string;
  browser: string;
  os: string;
  ip: string;
  user_agent: string;
  created_at: string;
  last_seen_at: string;
  current: boolean;
}

const KEY = ['signed-in'];

function useEnd() {
  const call = useAreaCall();
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  return async (question: string, path: string, body: Record<string, unknown>, done: string) => {
    if (!(await confirm(translate(question), 'END'))) return;
    try {
      await call('POST', path, body);
      notify(done, { type: 'success' });
    } catch {
      // The WARNING alert has said why.
    }
    await queryClient.invalidateQueries({ queryKey: KEY });
  };
}

export function SignedInPage() {
  const call = useAreaCall();
  const translate = useTranslate();
  const [raLocale] = useLocaleState();
  const locale = raLocale === 'en' ? 'en' : 'zh';
  const end = useEnd();
  const { data } = useQuery({ queryKey: KEY, queryFn: () => call<{ list: SignedInSession[]; total: number }>('GET', 'session/list') });
  const others = data?.list.filter((s) => !s.current).length ?? 0;
  return (
    <Box sx={{ mt: 2 }} className="signed-in-page">
      <Title title="app.signed_in.title" />
      <SectionCard title="app.signed_in.title">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('app.signed_in.intro')}
        </Typography>
        {data && (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" className="signed-in-list">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('app.signed_in.device')}</TableCell>
                  <TableCell>{translate('app.signed_in.ip')}</TableCell>
                  <TableCell>{translate('app.signed_in.since')}</TableCell>
                  <TableCell>{translate('app.signed_in.last_seen')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {data.list.map((session) => (
                  <TableRow key={session.id} className={session.current ? 'signed-in-row signed-in-current' : 'signed-in-row'}>
                    <TableCell>
                      <Typography variant="body2" className="signed-in-device" title={session.user_agent} data-user-data>
                        {session.browser || session.os ? [session.browser, session.os].filter(Boolean).join(' · ') : translate('app.signed_in.unknown_device')}
                      </Typography>
                    </TableCell>
                    <TableCell className="signed-in-ip" data-user-data>
                      {session.ip}
                    </TableCell>
                    <TableCell>{formatDateTime(session.created_at, locale)}</TableCell>
                    <TableCell>{formatDateTime(session.last_seen_at, locale)}</TableCell>
                    <TableCell align="right">
                      {session.current ? (
                        <Chip size="small" color="primary" label={translate('app.signed_in.this_one')} />
                      ) : (
                        <Button
                          label="app.signed_in.end"
                          color="error"
                          className="signed-in-end"
                          onClick={() => end('app.signed_in.end_confirm', 'session/end', { id: session.id }, 'app.signed_in.ended')}
                        >
                          <LogoutIcon />
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
        {/* Only when there are other sessions: with none, the button would end nothing. */}
        {others > 0 && (
          <Button
            label="app.signed_in.end_others"
            variant="outlined"
            color="error"
            sx={{ mt: 2 }}
            className="signed-in-end-others"
            onClick={() => end('app.signed_in.end_others_confirm', 'session/end_others', {}, 'app.signed_in.ended_others')}
          >
            <LogoutIcon />
          </Button>
        )}
      </SectionCard>
    </Box>
  );
}

/** The page as each area's features list it. */
export const signedInPage: AreaPage = { path: 'signed-in', label: 'app.signed_in.menu', icon: DevicesIcon, element: createElement(SignedInPage) };
