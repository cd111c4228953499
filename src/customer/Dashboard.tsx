/** /admin (and /admin/dashboard): the customer's account at a glance. */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Title, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { Figure } from '../area/Figure';
import { formatBytes } from '../screens/bytes';
import { useAccount } from './useAccount';
import { CapacityCard } from '../storage/CapacitySummary';
import { PointsCard } from '../shop/PointsCard';
import { BlocksCard, RecentOrdersCard, StorageBanners } from './StorageOverTime';
import { CustomerOpenTickets } from '../support/tickets/TicketCards';
import { FirstSteps } from './FirstSteps';

export function CustomerDashboard() {
  const translate = useTranslate();
  const { data: account } = useAccount();
  return (
    <Box sx={{ mt: 2 }} className="customer-dashboard">
      <Title title="ra.page.dashboard" />
      {account && (
        <>
          <Typography variant="h5" gutterBottom>
            {translate('app.dashboard.welcome', { name: account.username || account.email })}
          </Typography>
          {account.is_owner === 1 && <StorageBanners />}
          {account.is_verified !== 1 && (
            <Alert
              severity="warning"
              sx={{ mb: 2 }}
              action={
                <Button component={Link} to={`/verify?email=${encodeURIComponent(account.email)}`} color="inherit" size="small">
                  {translate('app.dashboard.verify_now')}
                </Button>
              }
            >
              {translate('error.not_verified')}
            </Alert>
          )}
          {account.is_owner === 1 && <FirstSteps />}
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
            <Figure label="app.dashboard.email" value={account.email} hint={translate(account.is_owner ? 'app.dashboard.owner' : 'app.dashboard.member')} />
            <Figure label="app.dashboard.points" value={account.points} />
            {account.is_owner === 1 && <Figure label="app.dashboard.storage_max" value={formatBytes(account.storage_max)} />}
            <Figure
              label="app.dashboard.verified"
              value={translate(account.is_verified ? 'ra.boolean.true' : 'ra.boolean.false')}
            />
          </Box>
          {account.is_owner === 1 && <CapacityCard />}
          {account.is_owner === 1 && <PointsCard />}
          {account.is_owner === 1 && <BlocksCard />}
          {account.is_owner === 1 && <RecentOrdersCard />}
          {account.is_verified === 1 && <CustomerOpenTickets />}
        </>
      )}
    </Box>
  );
}
