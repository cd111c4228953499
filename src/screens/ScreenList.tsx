/** A resource's list, derived from its declaration: columns, sorting, filters, search, paging on the server. */
import { CreateButton, DataTable, FilterButton, TopToolbar, useCanAccess, type RaRecord } from 'react-admin';
import { ListPage } from './ListPage';
import { ListPagination } from './ListPagination';
import VisibilityIcon from '@mui/icons-material/Visibility';
import EditIcon from '@mui/icons-material/Edit';
import { Button } from 'react-admin';
import { Link } from 'react-router-dom';
import type { Screen } from './screen';
import { allows, pagesOf, visibleFields } from './registry';
import { useAreaScreens } from './areaScreens';
import { FieldView } from './fields';
import { filtersOf } from './filters';
import { useScreenPaths } from './paths';
import { DeleteRecordButton } from './DeleteRecordButton';
import { representationOf } from './representation';

function Actions({ canCreate, hasFilters }: { canCreate: boolean; hasFilters: boolean }) {
  return (
    <TopToolbar>
      {hasFilters && <FilterButton />}
      {canCreate && <CreateButton />}
    </TopToolbar>
  );
}

function RowButtons({ record, screen, canEdit, canDelete }: { record?: RaRecord; screen: Screen; canEdit: boolean; canDelete: boolean }) {
  const paths = useScreenPaths(screen.name);
  const pages = pagesOf(screen);
  if (!record) return null;
  const stop = (e: React.MouseEvent) => e.stopPropagation();
  return (
    <span style={{ display: 'inline-flex', gap: 4, whiteSpace: 'nowrap' }}>
      {pages.view && (
        <Button component={Link} to={paths.view(record.id)} label="ra.action.show" onClick={stop}>
          <VisibilityIcon />
        </Button>
      )}
      {pages.update && canEdit && (
        <Button component={Link} to={paths.update(record.id)} label="ra.action.edit" onClick={stop}>
          <EditIcon />
        </Button>
      )}
      {canDelete && <DeleteRecordButton question={screen.extension.deleteConfirm} />}
    </span>
  );
}

/**
 * Cells keep addresses and names on one line (no word broken in the middle; the list scrolls
 * sideways in its card instead), the column that names a record stays in view while scrolling,
 * and phones drop the id column.
 */
function listLayout(naming: string) {
  const fixed = { position: 'sticky', left: 0, zIndex: 1, bgcolor: 'background.paper' } as const;
  return {
    '& th, & td': { whiteSpace: 'nowrap' },
    [`& td.column-${naming}, & th.column-${naming}`]: fixed,
    '@media (max-width: 600px)': { '& .column-id': { display: 'none' } },
  };
}

export function ScreenList({ screen }: { screen: Screen }) {
  const { declaration } = screen;
  const paths = useScreenPaths(screen.name);
  const pages = pagesOf(screen);
  const edit = useCanAccess({ resource: screen.name, action: 'edit' });
  const remove = useCanAccess({ resource: screen.name, action: 'delete' });
  const create = useCanAccess({ resource: screen.name, action: 'create' });
  const canEdit = pages.update && edit.canAccess === true;
  const canDelete = allows(screen, 'delete') && remove.canAccess === true;
  const canCreate = pages.form && allows(screen, 'create') && create.canAccess === true;
  const { extension } = screen;
  const derivedFilters = filtersOf(declaration, useAreaScreens().screens);
  const filters = extension.filters?.(screen.area, derivedFilters) ?? derivedFilters;
  const sort = declaration.defaultSort ?? { field: 'id', order: 'desc' };
  const listed = visibleFields(declaration).filter(([, f]) => f.list);
  const chosen = extension.columns?.(screen.area);
  const columns = chosen ? chosen.flatMap((name) => listed.filter(([n]) => n === name)) : listed;
  const ListTop = extension.listTop;
  const rowClick = (id: RaRecord['id']) => (extension.viewPage && pages.view ? paths.view(id) : canEdit ? paths.update(id) : pages.view ? paths.view(id) : false);

  return (
    <ListPage
      sort={{ field: sort.field, order: sort.order === 'asc' ? 'ASC' : 'DESC' }}
      filters={filters}
      perPage={20}
      pagination={<ListPagination />}
      exporter={false}
      sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' } }}
      actions={<Actions canCreate={canCreate} hasFilters={filters.length > 1} />}
      empty={extension.keepEmptyList?.(screen.area) ? false : undefined}
    >
      {ListTop && <ListTop screen={screen} />}
      <DataTable rowClick={rowClick} bulkActionButtons={false} className={`list-${screen.name}`} sx={listLayout(representationOf(screen))}>
        {!extension.hideId && <DataTable.Col source="id" />}
        {columns.map(([name, field]) => {
          const View = extension.views?.[name] ?? FieldView;
          return (
            <DataTable.Col key={name} source={name} disableSort={!field.sortable}>
              <View name={name} field={field} area={screen.area} />
            </DataTable.Col>
          );
        })}
        {(pages.view || canEdit || canDelete) && (
          <DataTable.Col label=" " render={(record) => <RowButtons record={record as RaRecord} screen={screen} canEdit={canEdit} canDelete={canDelete} />} />
        )}
      </DataTable>
    </ListPage>
  );
}
