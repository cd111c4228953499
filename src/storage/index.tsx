/**
 * Storage blocks: operators grant and edit them for a customer (customer picker); the list
 * shows the capacity summary — the customer's own, or, for operators, that of the customer
 * the list is filtered by.
 */
import StorageIcon from '@mui/icons-material/Storage';
import Typography from '@mui/material/Typography';
import { Button, useListContext, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { storage } from '../../resources/storage';
import type { Screen, ScreenExtension, ScreenFeature } from '../screens/screen';
import { CapacityCard } from './CapacitySummary';
import { ExpiryOperatorActions, ExpiryView } from './ExpiryActions';

function StorageListTop({ screen }: { screen: Screen }) {
  const { filterValues } = useListContext();
  const translate = useTranslate();
  if (screen.area === 'admin') {
    return (
      <>
        <CapacityCard inList />
        <Button component={Link} to="/admin/storage/buy" label="app.shop.buy_title" variant="contained" sx={{ m: 1 }} className="buy-storage-link" />
      </>
    );
  }
  if (filterValues.owner_id) return <CapacityCard customerId={filterValues.owner_id} inList />;
  return (
    <Typography variant="body2" color="text.secondary" sx={{ m: 2 }}>
      {translate('app.storage.pick_customer')}
    </Typography>
  );
}

const storageScreens: ScreenExtension = {
  columns: (area) => [...(area === 'manage' ? ['owner_id'] : []), 'size', 'source', 'label', 'expires_at', 'created_at'],
  listTop: StorageListTop,
  views: { expires_at: ExpiryView },
  updateActions: ExpiryOperatorActions,
};

export const storageBlocks: ScreenFeature = { declaration: storage, extension: storageScreens, icon: StorageIcon };
