/**
 * Security: the two-step sign-in page of each area (with the area's policy where it has one) and
 * the operators' reset of a customer's second factor. The sign-in pages' second step is
 * SecondStep.tsx, which the public pages import.
 */
import SecurityIcon from '@mui/icons-material/Security';
import { createElement, type ReactElement } from 'react';
import type { AreaPage } from '../area/features';
import { OperatorsPolicyCard, TeamPolicyCard } from './PolicyCards';
import { SecurityPage } from './SecurityPage';

export { ResetSecondFactorButton } from './ResetButton';

const securityPage = (policy?: ReactElement): AreaPage => ({
  path: 'security',
  label: 'app.second_factor.menu',
  icon: SecurityIcon,
  element: createElement(SecurityPage, { policy }),
});

export const customerSecurityPage = securityPage(createElement(TeamPolicyCard));
export const operatorSecurityPage = securityPage(createElement(OperatorsPolicyCard));
export const mailboxSecurityPage = securityPage();
