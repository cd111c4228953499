/**
 * One form page for create and update (the specification's shared form page): without ?id= it
 * creates, with ?id= it edits that record. Inputs come from the declaration; the server's
 * field errors appear beside the fields (pessimistic saving).
 */
import { Create, Edit, SaveButton, SimpleForm, Toolbar, ListButton, TopToolbar, useCanAccess } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import type { Screen } from './registry';
import { allows } from './registry';
import { FieldInput, isInput, type FormMode } from './inputs';
import { DeleteRecordButton } from './DeleteRecordButton';
import { useScreenPaths } from './paths';

function Inputs({ screen, mode }: { screen: Screen; mode: FormMode }) {
  return (
    <>
      {Object.entries(screen.declaration.fields)
        .filter(([, field]) => isInput(field, screen.area, mode))
        .map(([name, field]) => (
          <FieldInput key={name} name={name} field={field} mode={mode} />
        ))}
    </>
  );
}

function FormToolbar({ screen, mode }: { screen: Screen; mode: FormMode }) {
  const paths = useScreenPaths(screen.name);
  const { canAccess } = useCanAccess({ resource: screen.name, action: 'delete' });
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      {mode === 'update' && allows(screen, 'delete') && canAccess && <DeleteRecordButton redirectTo={paths.list} />}
    </Toolbar>
  );
}

const actions = (
  <TopToolbar>
    <ListButton />
  </TopToolbar>
);

export function ScreenForm({ screen }: { screen: Screen }) {
  const [search] = useSearchParams();
  const id = search.get('id');
  const form = (mode: FormMode) => (
    <SimpleForm toolbar={<FormToolbar screen={screen} mode={mode} />} maxWidth={640} className={`form-${screen.name}`}>
      <Inputs screen={screen} mode={mode} />
    </SimpleForm>
  );
  if (id) {
    return (
      <Edit key={id} id={id} mutationMode="pessimistic" redirect="list" actions={actions}>
        {form('update')}
      </Edit>
    );
  }
  return (
    <Create redirect="list" actions={actions}>
      {form('create')}
    </Create>
  );
}
