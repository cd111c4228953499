/** A declared 0/1 field as a switch, with a sentence under it saying what turning it on or off does. */
import { BooleanInput } from 'react-admin';
import type { FieldInputProps } from './screen';

export function FlagInput({ name, field, mode, helperText }: FieldInputProps & { helperText?: string }) {
  return (
    <BooleanInput
      source={name}
      defaultValue={mode === 'create' ? field.default : undefined}
      format={(v) => v === 1 || v === true}
      parse={(v) => (v ? 1 : 0)}
      helperText={helperText}
    />
  );
}
