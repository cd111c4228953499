/**
 * First steps on an area's dashboard, until all are done. Each step says whether it is done (its
 * area reads that from data) and links to where it is done; the first open one is the next.
 * Its texts: `<texts>.title`, `.intro`, and per step `.<key>` and `.<key>_hint` (or a hint of its own).
 */
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';

export interface FirstStep {
  key: string;
  done: boolean;
  to: string;
  /** Instead of `<texts>.<key>_hint`: what the data says about this step (translated). */
  hint?: string;
}

export function FirstStepsCard({ texts, steps, className }: { texts: string; steps: FirstStep[]; className?: string }) {
  const translate = useTranslate();
  if (steps.every((s) => s.done)) return null;
  const next = steps.find((s) => !s.done)!;
  return (
    <Card sx={{ mb: 2, maxWidth: 720 }} className={['first-steps', className].filter(Boolean).join(' ')}>
      <CardContent>
        <Typography variant="h6">{translate(`${texts}.title`)}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate(`${texts}.intro`)}
        </Typography>
        {steps.map((step, i) => (
          <Box key={step.key} className={`first-step step-${step.key} ${step.done ? 'step-done' : 'step-open'}`} sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.5, py: 1, borderTop: i ? 1 : 0, borderColor: 'divider' }}>
            {step.done ? <CheckCircleIcon color="success" /> : <RadioButtonUncheckedIcon color={step === next ? 'primary' : 'disabled'} />}
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography variant="subtitle2" sx={step.done ? { color: 'text.secondary', textDecoration: 'line-through' } : undefined}>
                {i + 1}. {translate(`${texts}.${step.key}`)}
              </Typography>
              {!step.done && (
                <Typography variant="body2" color="text.secondary" className="step-hint">
                  {step.hint ?? translate(`${texts}.${step.key}_hint`)}
                </Typography>
              )}
            </Box>
            {step.done ? (
              <Typography variant="caption" color="success.main" sx={{ whiteSpace: 'nowrap' }}>
                {translate('app.first_steps.done')}
              </Typography>
            ) : (
              <Button component={Link} to={step.to} size="small" variant={step === next ? 'contained' : 'text'} className="step-go">
                {translate('app.first_steps.go')}
              </Button>
            )}
          </Box>
        ))}
      </CardContent>
    </Card>
  );
}
