/** Calls of an area that are not resource CRUD (me/info, index/stat, …), through its data provider. */
import { useDataProvider } from 'react-admin';
import type { AreaDataProvider } from '../dataProvider';

export function useAreaCall() {
  return useDataProvider<AreaDataProvider>().call;
}
