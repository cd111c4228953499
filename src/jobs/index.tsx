/** The job machinery's page for operators. */
import WorkHistoryIcon from '@mui/icons-material/WorkHistory';
import type { AreaPage } from '../area/features';
import { JobsPage } from './JobsPage';

export const jobsPage: AreaPage = { path: 'jobs', label: 'app.jobs.title', icon: WorkHistoryIcon, element: <JobsPage /> };
