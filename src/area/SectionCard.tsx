/** A titled card of a hand-written page (profile, dashboard). */
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

export function SectionCard({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  const translate = useTranslate();
  return (
    <Card className={className} sx={{ mb: 2, maxWidth: 640 }}>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate(title)}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}
