/** Inputs of the ticket form: the first message with its files, and the record it is about. */
import { AutocompleteInput, FileField, FileInput, ReferenceInput, TextInput, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { FieldInputProps } from '../screens/extensions';
import { rules } from '../screens/inputs';

/** Most files on one message; the server says the real limit (ATTACHMENT_MAX_COUNT) when it differs. */
export const FILES_HINT_COUNT = 5;

export function MessageInput({ name, field, mode }: FieldInputProps) {
  const translate = useTranslate();
  return (
    <>
      <TextInput source={name} validate={rules(field, mode)} fullWidth multiline minRows={6} />
      <FileInput source="attachments" multiple label="app.ticket.attach" helperText={translate('app.ticket.attachments_hint', { count: FILES_HINT_COUNT })} className="ticket-attachments">
        <FileField source="src" title="title" />
      </FileInput>
    </>
  );
}

/** One of the customer's domains or mailboxes, once the kind is chosen. */
export function LinkInput({ name }: FieldInputProps) {
  const type = useWatch({ name: 'link_type' }) as string | undefined;
  if (type !== 'domain' && type !== 'email') return null;
  return (
    <ReferenceInput key={type} source={name} reference={type} perPage={50}>
      <AutocompleteInput fullWidth filterToQuery={(q) => ({ q })} />
    </ReferenceInput>
  );
}
