/** The contact form of the index page (POST /api/message/send); `website` is a honeypot no person sees. */
import { useState } from 'react';
import { publicApi } from '../api/clients';
import { TextField } from './TextField';
import { Alert, Button } from './ui';
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
    <form onSubmit={submit} noValidate className="contact-form">
      {sent && (
        <Alert severity="success" onClose={() => setSent(false)}>
          {t('app.contact.sent')}
        </Alert>
      )}
      <div className="contact-form-names">
        <TextField {...form.field('name')} label={t('app.contact.name')} fullWidth margin="dense" required />
        <TextField {...form.field('email')} label={t('app.auth.email')} type="email" fullWidth margin="dense" required />
      </div>
      <TextField {...form.field('subject')} label={t('app.contact.subject')} fullWidth margin="dense" />
      <TextField {...form.field('content')} label={t('app.contact.content')} fullWidth margin="dense" multiline minRows={4} maxRows={12} required />
      <div aria-hidden className="contact-form-website">
        <input name="website" tabIndex={-1} autoComplete="off" value={form.values.website} onChange={(e) => form.setValues((v) => ({ ...v, website: e.target.value }))} />
      </div>
      <Button type="submit" variant="contained" disabled={form.busy}>
        {t('app.contact.send')}
      </Button>
    </form>
  );
}
