/**
 * One form page for create and update (the specification's shared form page): without ?id= it
 * creates, with ?id= it edits that record. Inputs come from the declaration (or the resource's
 * own, see screen.ts); the server's field errors appear beside the fields (pessimistic saving).
 */
import { inlineErrorsOnly } from '../area/forms';
import { Create, Edit, SaveButton, SimpleForm, Toolbar, ListButton, TopToolbar, useCanAccess, useDataProvider, useNotify, useRedirect } from 'react-admin';
import type { AreaDataProvider } from '../dataProvider';
import { submitCall } from '../area/formCall';
import { useSearchParams } from 'react-router-dom';
import type { Screen } from './screen';
import { allows } from './registry';
import { FieldInput, isInput, type FormMode } from './inputs';
import { DeleteRecordButton } from './DeleteRecordButton';
import { useScreenPaths } from './paths';
import { RecordPage, pageQueryMeta } from './RecordPage';

function Inputs({ screen, mode }: { screen: Screen; mode: FormMode }) {
  const { extension } = screen;
  const hidden = extension.hiddenInputs?.(screen.area, mode) ?? [];
  return (
    <>
      {Object.entries(screen.declaration.fields)
        .filter(([name, field]) => isInput(field, screen.area, mode) && !hidden.includes(name))
        .map(([name, field]) => {
          const Input = extension.inputs?.[name] ?? FieldInput;
          return <Input key={name} name={name} field={field} mode={mode} area={screen.area} />;
        })}
    </>
  );
}

function FormToolbar({ screen, mode }: { screen: Screen; mode: FormMode }) {
  const paths = useScreenPaths(screen.name);
  const { canAccess } = useCanAccess({ resource: screen.name, action: 'delete' });
  const Delete = screen.extension.deleteButton ?? DeleteRecordButton;
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      {mode === 'update' && allows(screen, 'delete') && canAccess && <Delete redirectTo={paths.list} question={screen.extension.deleteConfirm} />}
    </Toolbar>
  );
}

function Actions({ screen, mode }: { screen: Screen; mode: FormMode }) {
  const Extra = mode === 'update' ? screen.extension.updateActions : undefined;
  return (
    <TopToolbar>
      {Extra && <Extra screen={screen} />}
      <ListButton />
    </TopToolbar>
  );
}

/** /create always creates; /update edits the record of ?id= (or says it is not there). */
export function ScreenForm({ screen, mode }: { screen: Screen; mode: FormMode }) {
  const dataProvider = useDataProvider<AreaDataProvider>();
  const notify = useNotify();
  const redirect = useRedirect();
  const [search] = useSearchParams();
  const id = search.get('id');
  const { afterCreate, created } = screen.extension;
  // A create that answers no record of the resource is posted as a call: react-admin would take its answer for the new record.
  const createAsCall =
    mode === 'create' && created
      ? (values: Record<string, unknown>) =>
          submitCall(
            () => dataProvider.createCall(screen.name, values),
            (answer) => {
              const said = created(answer);
              notify(said.message, { type: 'info', messageArgs: said.args });
              redirect(afterCreate ?? 'list', screen.name, undefined, answer);
            },
          )
      : undefined;
  const form = (mode: FormMode) => (
    <SimpleForm {...inlineErrorsOnly} onSubmit={createAsCall} toolbar={<FormToolbar screen={screen} mode={mode} />} maxWidth={640} className={`form-${screen.name}`}>
      <Inputs screen={screen} mode={mode} />
    </SimpleForm>
  );
  if (mode === 'update') {
    const Panel = screen.extension.updatePanel;
    return (
      <RecordPage screen={screen} id={id}>
        <Edit key={id} id={id!} queryOptions={{ meta: pageQueryMeta }} mutationOptions={{ meta: pageQueryMeta }} mutationMode="pessimistic" redirect="list" actions={<Actions screen={screen} mode="update" />}>
          {form('update')}
          {Panel && <Panel screen={screen} />}
        </Edit>
      </RecordPage>
    );
  }
  return (
    <Create redirect={afterCreate ?? 'list'} actions={<Actions screen={screen} mode="create" />}>
      {form('create')}
    </Create>
  );
}
