/** /admin/*: the customer area, its own react-admin app. */
import { customerApi, publicApi } from '../api/clients';
import { areaAdmin } from '../area/AreaAdmin';
import { createArea } from '../area/createArea';
import { createCustomerAuthProvider } from '../authProvider/customer';
import { CustomerDashboard } from './Dashboard';
import { customerFeatures } from './features';
import { ProfilePage } from './profile/ProfilePage';

const area = createArea({ area: 'admin', features: customerFeatures, api: customerApi, publicApi, storePrefix: 'customer', authProvider: createCustomerAuthProvider });

export default areaAdmin({ area, Dashboard: CustomerDashboard, Profile: ProfilePage });
