/** Inputs of the ticket form: the first message with its files, and the record it is about. */
import { AutocompleteInput, FileField, FileInput, ReferenceInput, SelectInput, TextInput, useCanAccess, useLocaleState, useRecordContext, useTranslate, type RaRecord } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { FieldInputProps } from '../../screens/screen';
import { enumLabelKey } from '../../screens/fields';
import { rules } from '../../screens/inputs';

/** Most files on one message; the server says the real limit (ATTACHMENT_MAX_COUNT) when it differs. */
export const FILES_HINT_COUNT = 5;

export function MessageInput({ name, field, mode }: FieldInputProps) {
  const translate = useTranslate();
  return (
    <>
      <TextInput source={name} validate={rules(field, mode)} fullWidth multiline minRows={6} />
      <FileInput source="attachments" multiple label="app.ticket.attach" helperText={translate('app.ticket.attachments_hint', { smart_count: FILES_HINT_COUNT })} className="ticket-attachments">
        <FileField source="src" title="title" />
      </FileInput>
    </>
  );
}

/** The kinds of record a ticket may be about; orders only for whoever sees them (the account owner). */
export function LinkTypeInput({ name, field, mode }: FieldInputProps) {
  const { canAccess: seesOrders } = useCanAccess({ resource: 'order', action: 'list' });
  const choices = (field.choices ?? []).filter((c) => c !== 'order' || seesOrders).map((c) => ({ id: c, name: enumLabelKey(name, c) }));
  return <SelectInput source={name} choices={choices} validate={rules(field, mode)} fullWidth />;
}

/** An order as people tell it apart: its number and what was bought. */
function OrderOption() {
  const record = useRecordContext();
  const [locale] = useLocaleState();
  if (!record) return null;
  return <>{`${record.number} · ${locale === 'en' ? record.product_name_en : record.product_name_zh}`}</>;
}
const orderText = (record: RaRecord) => String(record.number);

/** One of the customer's domains, mailboxes or orders (newest first), once the kind is chosen. */
export function LinkInput({ name }: FieldInputProps) {
  const type = useWatch({ name: 'link_type' }) as string | undefined;
  if (type === 'order') {
    return (
      <ReferenceInput key={type} source={name} reference="order" perPage={50} sort={{ field: 'id', order: 'DESC' }}>
        <AutocompleteInput fullWidth optionText={<OrderOption />} inputText={orderText} matchSuggestion={() => true} filterToQuery={(q) => ({ q })} />
      </ReferenceInput>
    );
  }
  if (type !== 'domain' && type !== 'email') return null;
  return (
    <ReferenceInput key={type} source={name} reference={type} perPage={50}>
      <AutocompleteInput fullWidth filterToQuery={(q) => ({ q })} />
    </ReferenceInput>
  );
}
