/** /admin/*: the customer area, its own react-admin app. */
import GroupIcon from '@mui/icons-material/Group';
import HistoryIcon from '@mui/icons-material/History';
import DnsIcon from '@mui/icons-material/Dns';
import MailIcon from '@mui/icons-material/Mail';
import AlternateEmailIcon from '@mui/icons-material/AlternateEmail';
import ForwardToInboxIcon from '@mui/icons-material/ForwardToInbox';
import StorageIcon from '@mui/icons-material/Storage';
import { Admin, CustomRoutes } from 'react-admin';
import { Route } from 'react-router-dom';
import { customerApi, publicApi } from '../api/clients';
import { areaLayout } from '../area/AreaLayout';
import { areaMenu } from '../area/AreaMenu';
import { createArea } from '../area/createArea';
import { AreaLoading } from '../area/Loading';
import { ToNotFound } from '../area/ToNotFound';
import { createCustomerAuthProvider } from '../authProvider/customer';
import { resourceOf } from '../screens/resourceOf';
import { areaTheme } from '../area/theme';
import { CustomerDashboard } from './Dashboard';
import { ProfilePage } from './profile/ProfilePage';

const area = createArea('admin', customerApi, 'customer');
const authProvider = createCustomerAuthProvider({ api: customerApi, publicApi, screens: area.screens });
const icons: Record<string, typeof GroupIcon> = {
  admin: GroupIcon,
  log: HistoryIcon,
  domain: DnsIcon,
  email: MailIcon,
  alias: AlternateEmailIcon,
  alias_domain: ForwardToInboxIcon,
  storage: StorageIcon,
};
const Layout = areaLayout(areaMenu(area.screens));

export default function CustomerApp() {
  return (
    <Admin
      basename="/admin"
      title="Maildesk"
      store={area.store}
      queryClient={area.queryClient}
      dataProvider={area.dataProvider}
      i18nProvider={area.i18nProvider}
      authProvider={authProvider}
      requireAuth
      disableTelemetry
      dashboard={CustomerDashboard}
      layout={Layout}
      loading={AreaLoading}
      catchAll={ToNotFound}
      theme={areaTheme}
    >
      {area.screens.map((screen) => resourceOf(screen, icons[screen.name]))}
      <CustomRoutes>
        <Route path="/dashboard" element={<CustomerDashboard />} />
        <Route path="/profile" element={<ProfilePage />} />
      </CustomRoutes>
    </Admin>
  );
}
