/** /admin/*: the customer area, its own react-admin app. */
import AlternateEmailIcon from '@mui/icons-material/AlternateEmail';
import DnsIcon from '@mui/icons-material/Dns';
import ForwardToInboxIcon from '@mui/icons-material/ForwardToInbox';
import GroupIcon from '@mui/icons-material/Group';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import HistoryIcon from '@mui/icons-material/History';
import MailIcon from '@mui/icons-material/Mail';
import StorageIcon from '@mui/icons-material/Storage';
// Shop.
import AddShoppingCartIcon from '@mui/icons-material/AddShoppingCart';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import SavingsIcon from '@mui/icons-material/Savings';
import { BuyStoragePage } from '../shop/BuyStoragePage';
// Support (tickets)
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import { customerApi, publicApi } from '../api/clients';
import { areaAdmin } from '../area/AreaAdmin';
import { createArea } from '../area/createArea';
import { createCustomerAuthProvider } from '../authProvider/customer';
import { CustomerDashboard } from './Dashboard';
import { ProfilePage } from './profile/ProfilePage';

const area = createArea('admin', customerApi, 'customer');

export default areaAdmin({
  area,
  basename: '/admin',
  authProvider: createCustomerAuthProvider({ api: customerApi, publicApi, screens: area.screens }),
  icons: {
    admin: GroupIcon,
    team_invitation: GroupAddIcon,
    log: HistoryIcon,
    domain: DnsIcon,
    email: MailIcon,
    alias: AlternateEmailIcon,
    alias_domain: ForwardToInboxIcon,
    storage: StorageIcon,
    // Shop.
    order: ReceiptLongIcon,
    points: SavingsIcon,
    // Support (tickets)
    ticket: SupportAgentIcon,
  },
  Dashboard: CustomerDashboard,
  Profile: ProfilePage,
  // Shop.
  pages: [{ path: 'storage/buy', label: 'app.shop.buy_title', icon: AddShoppingCartIcon, element: <BuyStoragePage /> }],
});
