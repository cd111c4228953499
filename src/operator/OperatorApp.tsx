/** /manage/*: the operator area, its own react-admin app. */
import { operatorApi, publicApi } from '../api/clients';
import { areaAdmin } from '../area/AreaAdmin';
import { createArea } from '../area/createArea';
import { createOperatorAuthProvider } from '../authProvider/operator';
import { OperatorDashboard } from './Dashboard';
import { operatorFeatures } from './features';
import { OperatorProfilePage } from './ProfilePage';

const area = createArea({ area: 'manage', features: operatorFeatures, api: operatorApi, publicApi, storePrefix: 'operator', authProvider: createOperatorAuthProvider });

export default areaAdmin({ area, Dashboard: OperatorDashboard, Profile: OperatorProfilePage });
