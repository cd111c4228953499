/** Support: tickets and the operators' canned replies, and the public contact form's guest messages. */
import QuickreplyIcon from '@mui/icons-material/Quickreply';
import { cannedReply } from '../../resources/canned_reply';
import type { ScreenFeature } from '../screens/screen';

export { guestMessages } from './guestMessages';
export { tickets } from './tickets';

export const cannedReplies: ScreenFeature = { declaration: cannedReply, icon: QuickreplyIcon };
