/** DMARC and TLS reports: the pictures and advice on a domain's page (both areas), and the operators' page across the installation. */
import AssessmentIcon from '@mui/icons-material/Assessment';
import type { AreaPage } from '../area/features';
import { OperatorReportsPage } from './OperatorReportsPage';

export { DomainReports } from './DomainReports';
export const operatorReportsPage: AreaPage = { path: 'reports', label: 'app.reports.menu', icon: AssessmentIcon, element: <OperatorReportsPage /> };
