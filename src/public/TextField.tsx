/**
 * MUI's outlined TextField as the public forms use it, made of the same parts it is made of:
 * MUI's own TextField also imports Select, and with it a menu, a popover and a modal that no
 * public form has (about 10 kB gzip on every sign-in page).
 */
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import { useId, type HTMLAttributes } from 'react';

type TextFieldProps = Pick<OutlinedInputProps, 'name' | 'value' | 'onChange' | 'type' | 'autoComplete' | 'multiline' | 'minRows' | 'maxRows'> & {
  label: string;
  helperText?: string;
  error?: boolean;
  required?: boolean;
  disabled?: boolean;
  fullWidth?: boolean;
  margin?: 'dense' | 'normal' | 'none';
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
};

export function TextField({ label, helperText, error, required, disabled, fullWidth, margin, inputMode, ...input }: TextFieldProps) {
  const id = useId();
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  return (
    <FormControl className="MuiTextField-root" variant="outlined" error={error} required={required} disabled={disabled} fullWidth={fullWidth} margin={margin}>
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput id={id} label={label} aria-describedby={helperTextId} fullWidth={fullWidth} inputProps={{ inputMode }} {...input} />
      {helperText && <FormHelperText id={helperTextId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
