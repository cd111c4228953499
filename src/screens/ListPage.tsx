/**
 * react-admin's <List> (ListBase around ListView, as its List composes them) whose filter
 * changes apply only while the list is still the page shown.
 *
 * react-admin applies a typed search 500 ms after the last keystroke, by navigating to the list
 * with the new filter. A row clicked meanwhile opens its record; but while the record's page is
 * being drawn (react-router navigates in a React transition) the list is still mounted, so the
 * delayed change still comes and sends the person back to the list. The router's history,
 * already at the record, says it came too late.
 */
import { useCallback, useContext, useMemo, type ReactNode } from 'react';
import { ListBase, ListContextProvider, ListView, Loading, useListContext, useLocation, type ListControllerResult, type ListProps } from 'react-admin';
import { UNSAFE_NavigationContext } from 'react-router-dom';

/** Where the router is now, even before the page for it is drawn: its history's location (for BrowserRouter, the browser's address). */
function useRouterPathnameNow() {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  return useCallback(() => (navigator as { location?: { pathname: string } }).location?.pathname ?? window.location.pathname, [navigator]);
}

function FilterChangesWhileShown({ children }: { children: ReactNode }) {
  const list = useListContext();
  const { pathname } = useLocation();
  const pathnameNow = useRouterPathnameNow();
  const value = useMemo<ListControllerResult>(() => {
    const { setFilters } = list;
    return {
      ...list,
      setFilters: (...change: Parameters<typeof setFilters>) => {
        if (pathnameNow() === pathname) setFilters(...change);
      },
    };
  }, [list, pathname, pathnameNow]);
  return <ListContextProvider value={value}>{children}</ListContextProvider>;
}

const authLoading = <Loading />;

export function ListPage({ sort, perPage, exporter, filter, filterDefaultValues, storeKey, queryOptions, ...view }: ListProps) {
  return (
    <ListBase
      sort={sort}
      perPage={perPage}
      exporter={exporter}
      filter={filter}
      filterDefaultValues={filterDefaultValues}
      storeKey={storeKey}
      queryOptions={queryOptions}
      authLoading={authLoading}
      offline={false}
    >
      <FilterChangesWhileShown>
        <ListView {...view} />
      </FilterChangesWhileShown>
    </ListBase>
  );
}
