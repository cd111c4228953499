/** A record's detail page (?id=), every visible field of its declaration. */
import { Labeled, ListButton, Show, SimpleShowLayout, TopToolbar, TextField, useCanAccess } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import type { Screen } from './registry';
import { allows, visibleFields } from './registry';
import { FieldView } from './fields';
import { DeleteRecordButton } from './DeleteRecordButton';
import { useScreenPaths } from './paths';
import { extensionOf } from './extensionOf';

function Actions({ screen }: { screen: Screen }) {
  const paths = useScreenPaths(screen.name);
  const { canAccess } = useCanAccess({ resource: screen.name, action: 'delete' });
  return (
    <TopToolbar>
      <ListButton />
      {allows(screen, 'delete') && canAccess && <DeleteRecordButton redirectTo={paths.list} />}
    </TopToolbar>
  );
}

export function ScreenView({ screen }: { screen: Screen }) {
  const [search] = useSearchParams();
  const id = search.get('id') ?? '';
  return (
    <Show key={id} id={id} actions={<Actions screen={screen} />}>
      <SimpleShowLayout className={`view-${screen.name}`}>
        <TextField source="id" />
        {visibleFields(screen.declaration).map(([name, field]) => {
          const View = extensionOf(screen).views?.[name] ?? FieldView;
          return (
            <Labeled key={name} source={name} fullWidth>
              <View name={name} field={field} full area={screen.area} />
            </Labeled>
          );
        })}
      </SimpleShowLayout>
    </Show>
  );
}
