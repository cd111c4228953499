/** The operators' dashboard: mailbox passwords still in a weaker scheme than argon2id, by scheme. */
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { SectionCard } from '../area/SectionCard';
import { useAreaCall } from '../area/useAreaCall';

export function WeakHashesCard() {
  const call = useAreaCall();
  const translate = useTranslate();
  const { data } = useQuery({ queryKey: ['weak-hashes'], queryFn: () => call<{ total: number; schemes: { scheme: string; count: number }[] }>('GET', 'imports/weak_hashes') });
  if (!data) return null;
  return (
    <SectionCard title="app.imports.weak_title" className="weak-hashes">
      {data.total === 0 ? (
        <Typography variant="body2">{translate('app.imports.weak_none')}</Typography>
      ) : (
        <>
          <Typography variant="body2" sx={{ mb: 1 }}>{translate('app.imports.weak_intro', { smart_count: data.total })}</Typography>
          <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
            {data.schemes.map((s) => (
              <Chip key={s.scheme} label={`${s.scheme}: ${s.count}`} className="weak-hash-scheme" data-user-data />
            ))}
          </Stack>
        </>
      )}
    </SectionCard>
  );
}
