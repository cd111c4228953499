/** /mail/*: the mailbox owners' area, its own react-admin app (pages only, no profile page: every page is the mailbox's own). */
import { mailboxApi, publicApi } from '../api/clients';
import { areaAdmin } from '../area/AreaAdmin';
import { createArea } from '../area/createArea';
import { createMailboxAuthProvider } from '../authProvider/mailbox';
import { mailboxOwnerFeatures } from './features';
import { MailboxOverview } from './Overview';

const area = createArea({ area: 'mail', features: mailboxOwnerFeatures, api: mailboxApi, publicApi, storePrefix: 'mailbox', authProvider: createMailboxAuthProvider });

export default areaAdmin({ area, Dashboard: MailboxOverview, dashboardLabel: 'app.mail_area.menu.overview' });
