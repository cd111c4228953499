/**
 * /mail: the mailbox at a glance: its address, how full it is, the addresses that deliver to it,
 * whether an out-of-office reply or forwarding is on, and the latest sign-ins to this area.
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Button, Title, useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { Figure } from '../area/Figure';
import { SectionCard } from '../area/SectionCard';
import { UsageBar } from '../area/UsageBar';
import { outOfOfficeState } from '../rules/RuleStatus';
import { useRules } from '../rules/rulesApi';
import { formatDateTime } from '../screens/shownDates';
import { useMailbox } from './useMailbox';

function RulesFigures() {
  const translate = useTranslate();
  const { data: rules } = useRules({ own: true });
  if (!rules) return null;
  const ooo = outOfOfficeState(rules.out_of_office);
  const forwarding = rules.forwarding.enabled && rules.forwarding.addresses.length > 0;
  return (
    <>
      <Figure
        label="app.mail_area.menu.out_of_office"
        value={<span className="overview-ooo">{translate(`app.rules.ooo.short.${ooo}`)}</span>}
        hint={<Link to="/mail/out-of-office">{translate('app.mail_area.overview.change')}</Link>}
      />
      <Figure
        label="app.mail_area.menu.forwarding"
        value={<span className="overview-forwarding">{translate(forwarding ? 'app.rules.fwd.short.on' : 'app.rules.fwd.short.off', { smart_count: rules.forwarding.addresses.length })}</span>}
        hint={<Link to="/mail/forwarding">{translate('app.mail_area.overview.change')}</Link>}
      />
    </>
  );
}

export function MailboxOverview() {
  const translate = useTranslate();
  const [raLocale] = useLocaleState();
  const { data: mailbox } = useMailbox();
  const locale = raLocale === 'en' ? 'en' : 'zh';
  return (
    <Box sx={{ mt: 2 }} className="mailbox-overview">
      <Title title="app.mail_area.menu.overview" />
      {mailbox && (
        <>
          <Typography variant="h5" gutterBottom className="overview-address" sx={{ overflowWrap: 'anywhere' }}>
            {mailbox.address_unicode || mailbox.address}
          </Typography>
          {mailbox.name && (
            <Typography variant="body1" color="text.secondary" gutterBottom>
              {mailbox.name}
            </Typography>
          )}
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 2 }}>
            <Figure
              label="app.mail_area.overview.usage"
              value={<UsageBar used={Number(mailbox.used_bytes ?? 0)} total={Number(mailbox.quota ?? 0)} width="100%" />}
              hint={translate('app.mail_area.overview.messages', { smart_count: Number(mailbox.used_messages ?? 0) })}
            />
            <RulesFigures />
          </Box>
          <SectionCard title="app.mail_area.overview.aliases" className="overview-aliases">
            {mailbox.aliases.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                {translate('app.mail_area.overview.no_aliases')}
              </Typography>
            ) : (
              <>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                  {translate('app.mail_area.overview.aliases_intro')}
                </Typography>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                  {mailbox.aliases.map((alias) => (
                    <Chip key={alias} label={alias} className="overview-alias" />
                  ))}
                </Box>
              </>
            )}
          </SectionCard>
          <SectionCard title="app.client.title" className="overview-client">
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {translate(mailbox.app_passwords_only ? 'app.mail_area.overview.client_intro_app_passwords' : 'app.mail_area.overview.client_intro')}
            </Typography>
            <Button label="app.mail_area.overview.client_link" component={Link} to="/mail/settings" variant="outlined" className="overview-client-link" />
          </SectionCard>
          <SectionCard title="app.mail_area.overview.sign_ins" className="overview-sign-ins">
            {mailbox.recent_sign_ins.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                {translate('app.mail_area.overview.no_sign_ins')}
              </Typography>
            ) : (
              <Box sx={{ overflowX: 'auto' }}>
                <Table size="small">
                  <TableHead>
                    <TableRow>
                      <TableCell>{translate('app.mail_area.overview.sign_in_at')}</TableCell>
                      <TableCell>{translate('app.mail_area.overview.sign_in_ip')}</TableCell>
                      <TableCell>{translate('app.mail_area.overview.sign_in_agent')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {mailbox.recent_sign_ins.map((signIn, i) => (
                      <TableRow key={`${signIn.at}-${i}`} className="overview-sign-in">
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(signIn.at, locale)}</TableCell>
                        <TableCell data-user-data>{signIn.ip ?? '—'}</TableCell>
                        {/* What the browser calls itself, as it sent it: data, not wording. */}
                        <TableCell data-user-data sx={{ maxWidth: 320, overflowWrap: 'anywhere' }}>
                          {signIn.user_agent ?? '—'}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
            )}
          </SectionCard>
        </>
      )}
    </Box>
  );
}
