/** A CSV file's problems, by line and column, each in the reader's language. */
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import type { CsvError } from './importsApi';

export function CsvErrors({ errors }: { errors: CsvError[] }) {
  const translate = useTranslate();
  return (
    <div className="csv-errors">
      <Typography variant="subtitle1" color="error">{translate('app.imports.errors_title', { smart_count: errors.length })}</Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.imports.line')}</TableCell>
            <TableCell>{translate('app.imports.column')}</TableCell>
            <TableCell>{translate('app.imports.problem')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {errors.slice(0, 200).map((e, i) => (
            <TableRow key={i} className="csv-error">
              <TableCell>{e.line}</TableCell>
              <TableCell data-user-data>{e.column}</TableCell>
              <TableCell>{translate(e.message, e.params ?? {})}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
