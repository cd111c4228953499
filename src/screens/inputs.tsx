/** The form input of a declared field, by its kind, with the declaration's rules as client-side validation. */
import {
  BooleanInput,
  DateTimeInput,
  NumberInput,
  PasswordInput,
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
import { enumLabelKey } from './fields';
import { MiB } from './bytes';

export type FormMode = 'create' | 'update';

/** Whether the form of this mode shows the field at all. */
export function isInput(field: Field, area: Area, mode: FormMode): boolean {
  // Structured values (json) need a screen of their own; the derived form leaves them alone.
  return field.kind !== 'json' && acceptsField(field, area, mode);
}

function rules(field: Field, mode: FormMode): Validator[] {
  const out: Validator[] = [];
  if (field.required && mode === 'create') out.push(requiredRule());
  const textual = ['text', 'longtext', 'password'].includes(field.kind);
  const min = field.min ?? (field.kind === 'password' ? 8 : field.kind === 'text' && field.required ? 1 : undefined);
  if (textual && min !== undefined && min > 1) out.push(minLength(min));
  if (textual && field.max !== undefined) out.push(maxLength(field.max));
  if (field.kind === 'integer' && field.min !== undefined) out.push(minValue(field.min));
  if (field.kind === 'integer' && field.max !== undefined) out.push(maxValue(field.max));
  if (field.kind === 'bytes' && field.min !== undefined) out.push(minValue(field.min / MiB));
  if (field.kind === 'bytes' && field.max !== undefined) out.push(maxValue(field.max / MiB));
  if (field.kind === 'email') out.push(emailRule());
  return out;
}

export function FieldInput({ name, field, mode }: { name: string; field: Field; mode: FormMode }) {
  const validate = rules(field, mode);
  const common = { source: name, validate, fullWidth: true };
  switch (field.kind) {
    case 'password':
      return <PasswordInput {...common} autoComplete="new-password" helperText={mode === 'update' ? 'app.form.password_keep' : undefined} />;
    case 'email':
      return <TextInput {...common} type="email" />;
    case 'longtext':
      return <TextInput {...common} multiline minRows={6} />;
    case 'integer':
    case 'reference':
      return <NumberInput {...common} step={1} />;
    case 'bytes':
      return (
        <NumberInput
          {...common}
          step={1}
          format={(v) => (v === null || v === undefined || v === '' ? '' : Number(v) / MiB)}
          parse={(v) => (v === null || v === '' ? null : Math.round(Number(v) * MiB))}
          helperText="app.form.in_mib"
        />
      );
    case 'boolean':
      return <BooleanInput source={name} format={(v) => v === 1 || v === true} parse={(v) => (v ? 1 : 0)} />;
    case 'enum':
      return <SelectInput {...common} choices={(field.choices ?? []).map((c) => ({ id: c, name: enumLabelKey(name, c) }))} />;
    case 'datetime':
      return <DateTimeInput {...common} />;
    default:
      return <TextInput {...common} />;
  }
}
