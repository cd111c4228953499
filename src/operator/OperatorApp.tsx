/** /manage/*: the operator area, its own react-admin app. */
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import AlternateEmailIcon from '@mui/icons-material/AlternateEmail';
import DescriptionIcon from '@mui/icons-material/Description';
import DnsIcon from '@mui/icons-material/Dns';
import ForumIcon from '@mui/icons-material/Forum';
import ForwardToInboxIcon from '@mui/icons-material/ForwardToInbox';
import HistoryIcon from '@mui/icons-material/History';
import MailIcon from '@mui/icons-material/Mail';
import OutboxIcon from '@mui/icons-material/Outbox';
import PeopleIcon from '@mui/icons-material/People';
import StorageIcon from '@mui/icons-material/Storage';
import { operatorApi, publicApi } from '../api/clients';
import { areaAdmin } from '../area/AreaAdmin';
import { createArea } from '../area/createArea';
import { createOperatorAuthProvider } from '../authProvider/operator';
import { OperatorDashboard } from './Dashboard';
import { OperatorProfilePage } from './ProfilePage';

const area = createArea('manage', operatorApi, 'operator');

export default areaAdmin({
  area,
  basename: '/manage',
  authProvider: createOperatorAuthProvider({ api: operatorApi, publicApi, screens: area.screens }),
  icons: {
    admin: AdminPanelSettingsIcon,
    user: PeopleIcon,
    log: HistoryIcon,
    email_template: DescriptionIcon,
    email_send_log: OutboxIcon,
    guest_message: ForumIcon,
    domain: DnsIcon,
    email: MailIcon,
    alias: AlternateEmailIcon,
    alias_domain: ForwardToInboxIcon,
    storage: StorageIcon,
  },
  Dashboard: OperatorDashboard,
  Profile: OperatorProfilePage,
});
