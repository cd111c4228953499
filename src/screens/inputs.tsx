/** The form input of a declared field, by its kind, with the declaration's rules as client-side validation. */
import {
  AutocompleteInput,
  NumberInput,
  PasswordInput,
  ReferenceInput,
  SelectInput,
  TextInput,
  email as emailRule,
  maxLength,
  maxValue,
  minLength,
  minValue,
  required as requiredRule,
  type Validator,
} from 'react-admin';
import type { Area, Field } from '../../resources/define';
import { acceptsField } from './registry';
import { useScreenNamed } from './areaScreens';
import { enumLabelKey } from './fields';
import { BytesInput, bytesBetween } from './BytesInput';
import { canBeEmptied } from './emptyValue';
import { FlagInput } from './FlagInput';
import { LocaleDateInput } from './LocaleDateInput';
import type { FieldInputProps, FormMode } from './screen';

export type { FormMode };

/** Whether the form of this mode shows the field at all. */
export function isInput(field: Field, area: Area, mode: FormMode): boolean {
  return acceptsField(field, area, mode);
}

/** Whether the form refuses the field empty: required on create, and on update whatever cannot be emptied (see emptyValue.ts). */
export function isRequired(field: Field, mode: FormMode): boolean {
  if (field.kind === 'boolean') return false;
  if (mode === 'create') return Boolean(field.required);
  return !field.writeOnly && !canBeEmptied(field);
}

export function rules(field: Field, mode: FormMode): Validator[] {
  const out: Validator[] = [];
  if (isRequired(field, mode)) out.push(requiredRule());
  const textual = ['text', 'longtext', 'password'].includes(field.kind);
  const min = field.min ?? (field.kind === 'password' ? 8 : field.kind === 'text' && field.required ? 1 : undefined);
  if (textual && min !== undefined && min > 1) out.push(minLength(min));
  if (textual && field.max !== undefined) out.push(maxLength(field.max));
  if (field.kind === 'integer' && field.min !== undefined) out.push(minValue(field.min));
  if (field.kind === 'integer' && field.max !== undefined) out.push(maxValue(field.max));
  if (field.kind === 'bytes') out.push(bytesBetween(field.min, field.max));
  if (field.kind === 'email') out.push(emailRule());
  return out;
}

/** A record of another resource, chosen by its name (searching as one types). */
function ReferencePicker({ name, field, mode }: FieldInputProps) {
  const referenced = useScreenNamed(field.reference);
  if (!referenced) return <NumberInput source={name} validate={rules(field, mode)} fullWidth step={1} />;
  return (
    <ReferenceInput source={name} reference={referenced.name} perPage={50}>
      <AutocompleteInput validate={rules(field, mode)} fullWidth filterToQuery={(q) => ({ q })} />
    </ReferenceInput>
  );
}

export function FieldInput(props: FieldInputProps) {
  const { name, field, mode } = props;
  const validate = rules(field, mode);
  // A new record starts from the declared defaults (an unset switch would otherwise send "off").
  const defaultValue = mode === 'create' ? field.default : undefined;
  const common = { source: name, validate, fullWidth: true, defaultValue };
  switch (field.kind) {
    case 'password':
      return <PasswordInput {...common} autoComplete="new-password" helperText={mode === 'update' ? 'app.form.password_keep' : undefined} />;
    case 'email':
      return <TextInput {...common} type="email" />;
    case 'longtext':
      // Grows with its text up to a point, then scrolls.
      return <TextInput {...common} multiline minRows={6} maxRows={20} />;
    case 'reference':
      return <ReferencePicker {...props} />;
    case 'integer':
      return <NumberInput {...common} step={1} />;
    case 'bytes':
      return <BytesInput source={name} validate={validate} />;
    case 'boolean':
      return <FlagInput {...props} />;
    case 'enum':
      return <SelectInput {...common} choices={(field.choices ?? []).map((c) => ({ id: c, name: enumLabelKey(name, c) }))} />;
    case 'datetime':
      return <LocaleDateInput source={name} validate={validate} withTime />;
    case 'json':
      // Structured values need an input of their own (a screen extension); raw JSON is not one.
      return null;
    default:
      return <TextInput {...common} />;
  }
}
