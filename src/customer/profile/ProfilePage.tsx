/** /admin/profile: username, password, e-mail (two steps) and, for the customer account, storage_max. */
import { Title } from 'react-admin';
import Box from '@mui/material/Box';
import { useAccount } from '../useAccount';
import { UsernameCard } from './UsernameCard';
import { PasswordCard } from '../../area/PasswordCard';
import { EmailCard } from './EmailCard';
import { StorageCard } from './StorageCard';
import { PointsCard } from '../../shop/PointsCard';

export function ProfilePage() {
  const { data: account } = useAccount();
  return (
    <Box sx={{ mt: 2 }} className="customer-profile">
      <Title title="app.nav.profile" />
      {account && (
        <>
          <UsernameCard account={account} />
          <PasswordCard path="me/update_password" apiKeys />
          <EmailCard account={account} />
          {account.is_owner === 1 && <StorageCard account={account} />}
          {account.is_owner === 1 && <PointsCard />}
        </>
      )}
    </Box>
  );
}
