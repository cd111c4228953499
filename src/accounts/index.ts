/** Accounts: operators, customers (points are added from a customer's page), and the activity log. */
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import PeopleIcon from '@mui/icons-material/People';
import { customer } from '../../resources/customer';
import { operator } from '../../resources/operator';
import type { ScreenFeature } from '../screens/screen';
import { AddPointsButton } from '../shop/OperatorButtons';
import { ResetSecondFactorButton } from '../security';
import { createElement } from 'react';

export { activityLog } from './activityLog';

export const operators: ScreenFeature = { declaration: operator, icon: AdminPanelSettingsIcon };
export const customers: ScreenFeature = { declaration: customer, extension: { updateActions: () => [createElement(AddPointsButton, { key: 'points' }), createElement(ResetSecondFactorButton, { key: 'second-factor' })] }, icon: PeopleIcon };
