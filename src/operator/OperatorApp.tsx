/** /manage/*: the operator area, its own react-admin app. */
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import PeopleIcon from '@mui/icons-material/People';
import HistoryIcon from '@mui/icons-material/History';
import DescriptionIcon from '@mui/icons-material/Description';
import OutboxIcon from '@mui/icons-material/Outbox';
import ForumIcon from '@mui/icons-material/Forum';
import DnsIcon from '@mui/icons-material/Dns';
import MailIcon from '@mui/icons-material/Mail';
import AlternateEmailIcon from '@mui/icons-material/AlternateEmail';
import ForwardToInboxIcon from '@mui/icons-material/ForwardToInbox';
import StorageIcon from '@mui/icons-material/Storage';
import { Admin, CustomRoutes } from 'react-admin';
import { Route } from 'react-router-dom';
import { operatorApi, publicApi } from '../api/clients';
import { areaLayout } from '../area/AreaLayout';
import { areaMenu } from '../area/AreaMenu';
import { createArea } from '../area/createArea';
import { AreaLoading } from '../area/Loading';
import { areaTheme } from '../area/theme';
import { ToNotFound } from '../area/ToNotFound';
import { createOperatorAuthProvider } from '../authProvider/operator';
import { resourceOf } from '../screens/resourceOf';
import { OperatorDashboard } from './Dashboard';
import { OperatorProfilePage } from './ProfilePage';

const area = createArea('manage', operatorApi, 'operator');
const authProvider = createOperatorAuthProvider({ api: operatorApi, publicApi, screens: area.screens });
const icons: Record<string, typeof PeopleIcon> = {
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
};
const Layout = areaLayout(areaMenu(area.screens));

export default function OperatorApp() {
  return (
    <Admin
      basename="/manage"
      title="Maildesk"
      store={area.store}
      queryClient={area.queryClient}
      dataProvider={area.dataProvider}
      i18nProvider={area.i18nProvider}
      authProvider={authProvider}
      requireAuth
      disableTelemetry
      dashboard={OperatorDashboard}
      layout={Layout}
      loading={AreaLoading}
      catchAll={ToNotFound}
      theme={areaTheme}
    >
      {area.screens.map((screen) => resourceOf(screen, icons[screen.name]))}
      <CustomRoutes>
        <Route path="/dashboard" element={<OperatorDashboard />} />
        <Route path="/profile" element={<OperatorProfilePage />} />
      </CustomRoutes>
    </Admin>
  );
}
