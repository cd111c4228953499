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
import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import StorageIcon from '@mui/icons-material/Storage';
// Shop.
import CampaignIcon from '@mui/icons-material/Campaign';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import SavingsIcon from '@mui/icons-material/Savings';
import SellIcon from '@mui/icons-material/Sell';
import WorkHistoryIcon from '@mui/icons-material/WorkHistory';
// Support (tickets)
import QuickreplyIcon from '@mui/icons-material/Quickreply';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import { operatorApi, publicApi } from '../api/clients';
import { areaAdmin } from '../area/AreaAdmin';
import { createArea } from '../area/createArea';
import { createOperatorAuthProvider } from '../authProvider/operator';
import { OperatorDashboard } from './Dashboard';
import { JobsPage } from '../jobs/JobsPage';
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
    // Mailbox deletion (issue 12)
    deleted_email: RestoreFromTrashIcon,
    alias: AlternateEmailIcon,
    alias_domain: ForwardToInboxIcon,
    storage: StorageIcon,
    // Shop.
    product: SellIcon,
    activity: CampaignIcon,
    order: ReceiptLongIcon,
    points: SavingsIcon,
    // Support (tickets)
    ticket: SupportAgentIcon,
    canned_reply: QuickreplyIcon,
  },
  Dashboard: OperatorDashboard,
  Profile: OperatorProfilePage,
  // Durable jobs
  pages: [{ path: 'jobs', label: 'app.jobs.title', icon: WorkHistoryIcon, element: <JobsPage /> }],
});
