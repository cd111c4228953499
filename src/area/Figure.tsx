/** One figure of a dashboard: a label and a value. */
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

export function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  const translate = useTranslate();
  return (
    <Card sx={{ minWidth: 200, flex: '1 1 200px' }} className="figure">
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {translate(label)}
        </Typography>
        {/* A long value (an address) is set smaller rather than broken in the middle of a word. */}
        <Typography variant={typeof value === 'string' && value.length > 18 ? 'h6' : 'h5'} component="div" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          {value}
        </Typography>
        {hint && (
          <Typography variant="caption" color="text.secondary">
            {hint}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}
