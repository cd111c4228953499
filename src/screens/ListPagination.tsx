/**
 * The lists' pagination, and a caption when the server's total is not exact: "about N" (an
 * estimate from the database's statistics) or "more than N" (counting stopped there). Paging
 * goes on working on the total given.
 */
import { Pagination, PaginationActions, useListContext, useTranslate, type PaginationActionsProps } from 'react-admin';
import Typography from '@mui/material/Typography';
import type { ListMeta } from '../dataProvider';

export function ListPagination() {
  const { total, meta } = useListContext() as { total?: number; meta?: ListMeta };
  const translate = useTranslate();
  const caption =
    meta?.totalIsEstimate && total != null
      ? translate(meta.totalIsLowerBound ? 'app.list.total_more_than' : 'app.list.total_about', { total: total.toLocaleString(), smart_count: total })
      : undefined;
  return (
    <>
      <Pagination rowsPerPageOptions={[10, 20, 50, 100]} actions={PageButtons} />
      {caption && (
        <Typography variant="caption" color="text.secondary" className="list-total-estimate" sx={{ display: 'block', textAlign: 'right', px: 2, pb: 1 }}>
          {caption}
        </Typography>
      )}
    </>
  );
}

/** react-admin's page buttons, with the navigation's name translated (MUI's default is English). */
function PageButtons(props: PaginationActionsProps) {
  const translate = useTranslate();
  return <PaginationActions {...props} aria-label={translate('app.list.pages')} />;
}
