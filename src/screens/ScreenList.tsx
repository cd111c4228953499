/** A resource's list, derived from its declaration: columns, sorting, filters, search, paging on the server. */
import { CreateButton, DataTable, FilterButton, TopToolbar, useCanAccess, type RaRecord } from 'react-admin';
import { ListPage } from './ListPage';
import { ListPagination } from './ListPagination';
import VisibilityIcon from '@mui/icons-material/Visibility';
import EditIcon from '@mui/icons-material/Edit';
import { Button } from 'react-admin';
import { ThemeProvider, type Theme } from '@mui/material/styles';
import { Link } from 'react-router-dom';
import type { Field } from '../../resources/define';
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
  const Delete = screen.extension.deleteButton ?? DeleteRecordButton;
  const Extra = screen.extension.rowActions;
  return (
    <span className="row-buttons" style={{ display: 'inline-flex', gap: 4, whiteSpace: 'nowrap' }}>
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
      {Extra && canEdit && <Extra screen={screen} />}
      {canDelete && <Delete question={screen.extension.deleteConfirm} />}
    </span>
  );
}

/** From this width on, lists show their 'wide' columns (resources/define.ts) and the row's buttons their labels. */
const WIDE_SCREEN = 1680;
const narrowScreen = `@media (max-width: ${WIDE_SCREEN - 0.05}px)`;

/**
 * Below a wide screen, react-admin's buttons in a row take the form they have on a phone: the
 * icon, with the translated label as tooltip and accessible name (its Button asks the theme's
 * breakpoints.down('sm')). The buttons a feature adds to a row (a product's "Take off sale") too.
 */
const compactButtons = (outer: Theme): Theme => ({
  ...outer,
  breakpoints: { ...outer.breakpoints, down: (key) => (key === 'sm' ? narrowScreen : outer.breakpoints.down(key)) },
});

/** Kinds whose values read as one piece: numbers, sizes, moments, yes/no. */
const oneLineKinds: ReadonlySet<Field['kind']> = new Set(['integer', 'bytes', 'datetime', 'boolean']);

/**
 * The list fits its card on a laptop: cells wrap at spaces (names, labels, Chinese text;
 * addresses break only after their '@', fields.tsx), numbers, sizes, dates and the row's
 * buttons stay on one line, a header breaks at its spaces only (a Chinese one stays whole), and
 * below a wide screen cells sit closer and 'wide' columns are left out. A phone keeps each cell
 * on one line and scrolls the list sideways instead, with the column that names a record in
 * view and without the id column.
 */
function listLayout(naming: string, columns: readonly (readonly [string, Field])[]) {
  const fixed = { position: 'sticky', left: 0, zIndex: 1, bgcolor: 'background.paper' } as const;
  const cells = (names: string[], cell = '') => names.map((name) => `& ${cell}.column-${name}`).join(', ');
  const oneLine = ['id', ...columns.filter(([, f]) => oneLineKinds.has(f.kind)).map(([name]) => name)];
  const wide = columns.filter(([name, f]) => f.list === 'wide' && name !== naming).map(([name]) => name);
  return {
    '& th': { wordBreak: 'keep-all' } as const,
    [cells(oneLine, 'td')]: { whiteSpace: 'nowrap' },
    '& td.row-buttons-cell': { width: '1%' },
    '& .row-buttons .MuiIconButton-root': { p: 0.75 },
    [`& td.column-${naming}, & th.column-${naming}`]: fixed,
    [narrowScreen]: {
      '& th, & td': { px: 1 },
      '& th:first-of-type, & td:first-of-type': { pl: 2 },
      ...(wide.length > 0 && { [cells(wide)]: { display: 'none' } }),
    },
    '@media (max-width: 600px)': { '& th, & td': { whiteSpace: 'nowrap' }, '& .column-id': { display: 'none' } },
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
      <DataTable rowClick={rowClick} bulkActionButtons={false} className={`list-${screen.name}`} sx={listLayout(representationOf(screen), columns)}>
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
          <DataTable.Col
            label=" "
            cellClassName="row-buttons-cell"
            render={(record) => (
              <ThemeProvider theme={compactButtons}>
                <RowButtons record={record as RaRecord} screen={screen} canEdit={canEdit} canDelete={canDelete} />
              </ThemeProvider>
            )}
          />
        )}
      </DataTable>
    </ListPage>
  );
}
