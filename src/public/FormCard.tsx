/** The card every sign-in form sits in, and the button that sends its form. */
import type { ReactNode } from 'react';
import { Button, Card } from './ui';

export function FormCard({ title, subtitle, children, className }: { title: string; subtitle?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <Card className={className ? `form-card ${className}` : 'form-card'}>
      <h1 className="ui-h5 ui-gutter">{title}</h1>
      {subtitle && <p className="ui-body2 ui-secondary form-card-subtitle">{subtitle}</p>}
      {children}
    </Card>
  );
}

export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <Button type="submit" variant="contained" size="large" fullWidth disabled={busy} className="form-card-submit">
      {children}
    </Button>
  );
}
