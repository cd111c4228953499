/**
 * react-admin's <List> (ListBase around ListView, as its List composes them). A typed search that
 * comes due after a row was clicked does not take the person back to the list: the router drops a
 * change of the query made for a page it has left (src/area/reactRouterProvider.ts).
 */
import { ListBase, ListView, Loading, type ListProps } from 'react-admin';

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
      <ListView {...view} />
    </ListBase>
  );
}
