/**
 * A spam setting as one card: inherit (as the domain, or the operators' default), off, or on with
 * a junk and a reject score; what applies now and where it comes from. The same card for the owner,
 * a mailbox's page and a domain's page.
 */
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { Button, useNotify, useTranslate } from 'react-admin';
import { submitCall } from '../area/formCall';
import { SectionCard } from '../area/SectionCard';
import type { SpamFilterChoice } from '../../resources/spam';
import type { SettingsInput, SpamSettings } from './spamApi';

export function SpamSettingsCard({ settings, save, inheritFrom }: { settings: SpamSettings; save: (values: SettingsInput) => Promise<unknown>; inheritFrom: 'domain' | 'default' }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [filter, setFilter] = useState<SpamFilterChoice>(settings.filter);
  const [junk, setJunk] = useState(String(settings.junk_score ?? settings.effective.junk_score));
  const [reject, setReject] = useState(String(settings.reject_score ?? settings.effective.reject_score));
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    setFilter(settings.filter);
    setJunk(String(settings.junk_score ?? settings.effective.junk_score));
    setReject(String(settings.reject_score ?? settings.effective.reject_score));
  }, [settings]);
  const submit = async () => {
    setErrors({});
    const refused = await submitCall(() => save(filter === 'on' ? { filter, junk_score: Number(junk), reject_score: Number(reject) } : { filter }), () => notify('app.spam.saved', { type: 'success' }));
    if (refused) setErrors(refused);
  };
  const effective = settings.effective;
  return (
    <SectionCard title="app.spam.settings_title" className="spam-settings">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('app.spam.settings_intro')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <TextField select size="small" label={translate('app.spam.filter')} value={filter} onChange={(e) => setFilter(e.target.value as SpamFilterChoice)} sx={{ minWidth: 200 }} className="spam-filter">
          <MenuItem value="inherit">{translate(`app.spam.inherit_${inheritFrom}`)}</MenuItem>
          <MenuItem value="on">{translate('app.spam.on')}</MenuItem>
          <MenuItem value="off">{translate('app.spam.off')}</MenuItem>
        </TextField>
        {filter === 'on' && (
          <>
            <TextField size="small" type="number" label={translate('app.spam.junk_score')} value={junk} onChange={(e) => setJunk(e.target.value)} error={!!errors.junk_score} helperText={errors.junk_score ?? translate('app.spam.junk_hint')} inputProps={{ step: 0.1, min: 0.1, max: 100 }} className="spam-junk" />
            <TextField size="small" type="number" label={translate('app.spam.reject_score')} value={reject} onChange={(e) => setReject(e.target.value)} error={!!errors.reject_score} helperText={errors.reject_score ?? translate('app.spam.reject_hint')} inputProps={{ step: 0.1, min: 0.1, max: 100 }} className="spam-reject" />
          </>
        )}
      </Box>
      <Typography variant="body2" sx={{ mt: 2 }} className="spam-effective">
        {effective.filter === 'off'
          ? translate('app.spam.effective_off', { from: translate(`app.spam.from_${effective.from}`) })
          : translate('app.spam.effective_on', { junk: effective.junk_score, reject: effective.reject_score, from: translate(`app.spam.from_${effective.from}`) })}
      </Typography>
      <Box sx={{ mt: 2 }}>
        <Button label="app.spam.save" variant="contained" onClick={submit} className="spam-save" />
      </Box>
    </SectionCard>
  );
}
