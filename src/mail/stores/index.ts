/** Mail stores: the hosts that hold the mailboxes (operators only; the screens are the declaration's). */
import LanIcon from '@mui/icons-material/Lan';
import { mailStore } from '../../../resources/mail_store';
import type { ScreenFeature } from '../../screens/screen';

export const mailStores: ScreenFeature = { declaration: mailStore, icon: LanIcon };
