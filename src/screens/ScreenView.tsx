/** A record's detail page (?id=), every visible field of its declaration. */
import { Labeled, ListButton, Show, SimpleShowLayout, TopToolbar, TextField, useCanAccess } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import type { Screen } from './screen';
import { allows, visibleFields } from './registry';
import { FieldView } from './fields';
import { DeleteRecordButton } from './DeleteRecordButton';
import { useScreenPaths } from './paths';
import { RecordPage, pageQueryMeta } from './RecordPage';

function Actions({ screen }: { screen: Screen }) {
  const paths = useScreenPaths(screen.name);
  const { canAccess } = useCanAccess({ resource: screen.name, action: 'delete' });
  const Extra = screen.extension.viewActions;
  const Delete = screen.extension.deleteButton ?? DeleteRecordButton;
  return (
    <TopToolbar>
      {Extra && <Extra screen={screen} />}
      <ListButton />
      {allows(screen, 'delete') && canAccess && <Delete redirectTo={paths.list} question={screen.extension.deleteConfirm} />}
    </TopToolbar>
  );
}

function viewFieldsOf(screen: Screen) {
  const visible = visibleFields(screen.declaration);
  const chosen = screen.extension.viewFields?.(screen.area);
  return chosen ? chosen.flatMap((name) => visible.filter(([n]) => n === name)) : visible;
}

export function ScreenView({ screen }: { screen: Screen }) {
  const [search] = useSearchParams();
  const id = search.get('id');
  const { viewPanel: Panel, hideId } = screen.extension;
  return (
    <RecordPage screen={screen} id={id}>
    <Show key={id} id={id!} queryOptions={{ meta: pageQueryMeta }} actions={<Actions screen={screen} />}>
      <SimpleShowLayout className={`view-${screen.name}`}>
        {!hideId && <TextField source="id" />}
        {viewFieldsOf(screen).map(([name, field]) => {
          const View = screen.extension.views?.[name] ?? FieldView;
          return (
            <Labeled key={name} source={name} fullWidth>
              <View name={name} field={field} full area={screen.area} />
            </Labeled>
          );
        })}
      </SimpleShowLayout>
      {Panel && <Panel screen={screen} />}
    </Show>
    </RecordPage>
  );
}
