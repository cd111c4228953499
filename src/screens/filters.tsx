/** The list filters of a declaration: free-text search, exact values, and from/to ranges; a reference is picked among the records of its screen in the area. */
import { AutocompleteInput, NumberInput, ReferenceInput, SearchInput, SelectInput, TextInput } from 'react-admin';
import type { ReactElement } from 'react';
import type { ResourceDeclaration } from '../../resources/define';
import { screenNamed } from './areaScreens';
import type { Screen } from './screen';
import { enumLabelKey } from './fields';
import { LocaleDateInput } from './LocaleDateInput';

export function filtersOf(declaration: ResourceDeclaration, screens: readonly Screen[]): ReactElement[] {
  const filters: ReactElement[] = [];
  if (Object.values(declaration.fields).some((f) => f.search)) filters.push(<SearchInput key="q" source="q" alwaysOn />);
  for (const [name, field] of Object.entries(declaration.fields)) {
    if (field.filter === 'range' && field.kind === 'datetime') {
      filters.push(<LocaleDateInput key={`${name}_gte`} source={`${name}_gte`} label="app.list.from" />);
      filters.push(<LocaleDateInput key={`${name}_lte`} source={`${name}_lte`} label="app.list.to" end />);
      continue;
    }
    if (field.filter !== 'eq') continue;
    if (field.kind === 'enum') {
      filters.push(<SelectInput key={name} source={name} choices={(field.choices ?? []).map((c) => ({ id: c, name: enumLabelKey(name, c) }))} />);
    } else if (field.kind === 'boolean') {
      filters.push(
        <SelectInput
          key={name}
          source={name}
          choices={[
            { id: 1, name: 'ra.boolean.true' },
            { id: 0, name: 'ra.boolean.false' },
          ]}
        />,
      );
    } else if (field.kind === 'reference' && screenNamed(screens, field.reference)) {
      filters.push(
        <ReferenceInput key={name} source={name} reference={screenNamed(screens, field.reference)!.name}>
          <AutocompleteInput filterToQuery={(q) => ({ q })} sx={{ minWidth: 240 }} />
        </ReferenceInput>,
      );
    } else if (field.kind === 'reference') {
      // A reference to what this area has no screen for (the customer's own account): nothing to choose.
      continue;
    } else if (field.kind === 'integer') {
      filters.push(<NumberInput key={name} source={name} />);
    } else {
      filters.push(<TextInput key={name} source={name} />);
    }
  }
  return filters;
}
