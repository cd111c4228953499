/**
 * A new customer's first steps on the dashboard, until all are done: verify a domain → get
 * storage → create a mailbox → set up the mail program. Each step says whether it is done
 * (read from the account's own records) and links to where it is done.
 */
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { clientSettingsSeen } from '../mail/mailboxes/clientSettingsSeen';
import { useCapacity } from '../storage/CapacitySummary';

/** Where "buy storage" leads: the shop's page. */
export const BUY_STORAGE_PATH = '/admin/storage/buy';

const one = { page: 1, perPage: 1 };
const newest = { field: 'id', order: 'DESC' as const };

export function FirstSteps() {
  const translate = useTranslate();
  const active = useGetList('domain', { pagination: one, sort: newest, filter: { status: 'active' } });
  const anyDomain = useGetList('domain', { pagination: one, sort: newest });
  const mailboxes = useGetList('email', { pagination: one, sort: newest });
  const capacity = useCapacity();
  if (active.isPending || anyDomain.isPending || mailboxes.isPending || capacity.isPending) return null;
  const firstDomain = anyDomain.data?.[0];
  const firstMailbox = mailboxes.data?.[0];
  const steps = [
    {
      key: 'domain',
      done: (active.total ?? 0) > 0,
      to: firstDomain ? `/admin/domain/update?id=${firstDomain.id}` : '/admin/domain/create',
    },
    { key: 'storage', done: (capacity.data?.capacity ?? 0) > 0, to: BUY_STORAGE_PATH },
    { key: 'mailbox', done: (mailboxes.total ?? 0) > 0, to: '/admin/email/create' },
    { key: 'client', done: clientSettingsSeen() && (mailboxes.total ?? 0) > 0, to: firstMailbox ? `/admin/email/update?id=${firstMailbox.id}#client-settings` : '/admin/email' },
  ];
  if (steps.every((s) => s.done)) return null;
  const next = steps.find((s) => !s.done)!;
  return (
    <Card sx={{ mb: 2, maxWidth: 720 }} className="first-steps">
      <CardContent>
        <Typography variant="h6">{translate('app.first_steps.title')}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('app.first_steps.intro')}
        </Typography>
        {steps.map((step, i) => (
          <Box key={step.key} className={`first-step step-${step.key} ${step.done ? 'step-done' : 'step-open'}`} sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.5, py: 1, borderTop: i ? 1 : 0, borderColor: 'divider' }}>
            {step.done ? <CheckCircleIcon color="success" /> : <RadioButtonUncheckedIcon color={step === next ? 'primary' : 'disabled'} />}
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography variant="subtitle2" sx={step.done ? { color: 'text.secondary', textDecoration: 'line-through' } : undefined}>
                {i + 1}. {translate(`app.first_steps.${step.key}`)}
              </Typography>
              {!step.done && (
                <Typography variant="body2" color="text.secondary">
                  {translate(`app.first_steps.${step.key}_hint`)}
                </Typography>
              )}
            </Box>
            {step.done ? (
              <Typography variant="caption" color="success.main" sx={{ whiteSpace: 'nowrap' }}>
                {translate('app.first_steps.done')}
              </Typography>
            ) : (
              <Button component={Link} to={step.to} size="small" variant={step === next ? 'contained' : 'text'} className="step-go">
                {translate('app.first_steps.go')}
              </Button>
            )}
          </Box>
        ))}
      </CardContent>
    </Card>
  );
}
