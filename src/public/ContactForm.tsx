/** The contact form of the index page (POST /api/message/send); `website` is a honeypot no person sees. */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { TextField } from './TextField';
import { useState } from 'react';
import { publicApi } from '../api/clients';
import { useApiForm } from './useApiForm';
import { usePublicI18n } from './usePublicI18n';

const empty = { name: '', email: '', subject: '', content: '', website: '' };

export function ContactForm() {
  const { t } = usePublicI18n();
  const [sent, setSent] = useState(false);
  const form = useApiForm(empty);
  const submit = form.submit(async (values) => {
    await publicApi({ method: 'POST', path: '/api/message/send', params: values });
    form.setValues(empty);
    setSent(true);
  });
  return (
    <Box component="form" onSubmit={submit} noValidate className="contact-form" sx={{ maxWidth: 640 }}>
      {sent && (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => setSent(false)}>
          {t('app.contact.sent')}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 2, flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
        <TextField {...form.field('name')} label={t('app.contact.name')} fullWidth margin="dense" required />
        <TextField {...form.field('email')} label={t('app.auth.email')} type="email" fullWidth margin="dense" required />
      </Box>
      <TextField {...form.field('subject')} label={t('app.contact.subject')} fullWidth margin="dense" />
      <TextField {...form.field('content')} label={t('app.contact.content')} fullWidth margin="dense" multiline minRows={4} maxRows={12} required />
      <Box aria-hidden sx={{ position: 'absolute', left: -10000, width: 1, height: 1, overflow: 'hidden' }}>
        <input name="website" tabIndex={-1} autoComplete="off" value={form.values.website} onChange={(e) => form.setValues((v) => ({ ...v, website: e.target.value }))} />
      </Box>
      <Button type="submit" variant="contained" disabled={form.busy} sx={{ mt: 1 }}>
        {t('app.contact.send')}
      </Button>
    </Box>
  );
}
