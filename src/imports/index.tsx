/** Moving in: the operators' PostfixAdmin import wizard, CSV import and export in both areas, the weak-hash card. */
import MoveToInboxIcon from '@mui/icons-material/MoveToInbox';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { AreaPage } from '../area/features';
import { CsvPage } from './CsvPage';
import { PostfixAdminWizard } from './PostfixAdminWizard';

export { WeakHashesCard } from './WeakHashesCard';

export const importWizardPage: AreaPage = { path: 'import_postfixadmin', label: 'app.imports.wizard_menu', icon: MoveToInboxIcon, element: <PostfixAdminWizard /> };
export const customerCsvPage: AreaPage = { path: 'import_csv', label: 'app.imports.csv_menu', icon: UploadFileIcon, element: <CsvPage area="admin" /> };
export const operatorCsvPage: AreaPage = { path: 'import_csv', label: 'app.imports.csv_menu', icon: UploadFileIcon, element: <CsvPage area="manage" /> };
