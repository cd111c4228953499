/**
 * An alias's destinations as a list of addresses (one per line of the form), added and removed
 * one by one. The API stores them comma-separated and accepts the list as it is.
 */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/RemoveCircleOutline';
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import { Button, FieldTitle, InputHelperText, required, useInput, useResourceContext, useTranslate } from 'react-admin';
import type { FieldInputProps } from '../../screens/screen';

const toList = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' && value !== '' ? value.split(',').map((s) => s.trim()) : [''];

const someAddress = (value: unknown) => (toList(value).some((a) => a.trim() !== '') ? undefined : 'ra.validation.required');

export function DestinationsInput({ name, mode }: FieldInputProps) {
  const resource = useResourceContext();
  const translate = useTranslate();
  const { field, fieldState } = useInput({ source: name, validate: mode === 'create' ? [required(), someAddress] : [someAddress] });
  const list = toList(field.value);
  const write = (next: string[]) => field.onChange(next);
  return (
    <Box className={`ra-input ra-input-${name} destinations-input`} sx={{ width: '100%', mb: 2 }}>
      <FieldTitle source={name} resource={resource} isRequired />
      {list.map((address, i) => (
        <Box key={i} sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1 }}>
          <TextField
            size="small"
            fullWidth
            inputMode="email"
            name={`${name}.${i}`}
            value={address}
            placeholder="name@example.com"
            onChange={(e) => write(list.map((a, j) => (j === i ? e.target.value : a)))}
            onBlur={field.onBlur}
          />
          <IconButton aria-label={translate('app.alias.remove_destination')} disabled={list.length === 1} onClick={() => write(list.filter((_, j) => j !== i))}>
            <DeleteIcon />
          </IconButton>
        </Box>
      ))}
      <Button label="app.alias.add_destination" onClick={() => write([...list, ''])} className="add-destination" sx={{ mt: 1 }}>
        <AddIcon />
      </Button>
      {/* Below the button, red when refused, like every other input's error. */}
      <FormHelperText error={Boolean(fieldState.error)} className="destinations-helper">
        <InputHelperText error={fieldState.error?.message} helperText="app.alias.destinations_hint" />
      </FormHelperText>
    </Box>
  );
}
