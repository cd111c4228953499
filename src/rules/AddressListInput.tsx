/** Forwarding targets: one address per line, added and removed one by one, at most `max`. */
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/RemoveCircleOutline';
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Button, InputHelperText, useInput, useTranslate, type Validator } from 'react-admin';

const listOf = (value: unknown): string[] => (Array.isArray(value) && value.length ? value.map(String) : ['']);

export function AddressListInput({ source, label, max, validate, helperText }: { source: string; label: string; max: number; validate?: Validator; helperText: string }) {
  const translate = useTranslate();
  const { field, fieldState } = useInput({ source, validate });
  const list = listOf(field.value);
  const write = (next: string[]) => field.onChange(next);
  return (
    <Box className={`ra-input ra-input-${source} address-list-input`} sx={{ width: '100%', mb: 2 }}>
      <Typography variant="body2" color="text.secondary">
        {translate(label)}
      </Typography>
      {list.map((address, i) => (
        <Box key={i} sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1 }}>
          <TextField
            size="small"
            fullWidth
            type="email"
            inputMode="email"
            name={`${source}.${i}`}
            value={address}
            placeholder="name@example.com"
            inputProps={{ 'aria-label': `${translate(label)} ${i + 1}` }}
            onChange={(e) => write(list.map((a, j) => (j === i ? e.target.value : a)))}
            onBlur={field.onBlur}
          />
          <IconButton aria-label={translate('app.rules.fwd.remove')} disabled={list.length === 1 && !list[0]} onClick={() => write(list.length === 1 ? [''] : list.filter((_, j) => j !== i))}>
            <DeleteIcon />
          </IconButton>
        </Box>
      ))}
      <Button label="app.rules.fwd.add" onClick={() => write([...list, ''])} disabled={list.length >= max} className="add-forward-address" sx={{ mt: 1 }}>
        <AddIcon />
      </Button>
      <FormHelperText error={Boolean(fieldState.error)} className="address-list-helper">
        <InputHelperText error={fieldState.error?.message} helperText={translate(helperText, { max, smart_count: max })} />
      </FormHelperText>
    </Box>
  );
}
