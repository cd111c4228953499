/** Under a domain's form: its status, how it was verified, and its DNS records checked live. */
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { Labeled, useRecordContext, useTranslate } from 'react-admin';
import { DateTimeField, StatusChip, enumLabelKey } from '../../screens/fields';
import { DnsRecords } from './DnsRecords';

export function DomainPanel() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <>
      <Divider />
      <Box sx={{ px: 2, pt: 2, display: 'flex', gap: 4, flexWrap: 'wrap', alignItems: 'flex-start' }} className="domain-state">
        <Labeled source="name_unicode">
          <Typography variant="h6" component="span">
            {record.name_unicode}
          </Typography>
        </Labeled>
        <Labeled source="status">
          <StatusChip value={record.status} />
        </Labeled>
        {record.verified_at && (
          <Labeled source="verified_at">
            <span>
              <DateTimeField source="verified_at" /> ({translate(enumLabelKey('verified_by', record.verified_by), { _: String(record.verified_by) })})
            </span>
          </Labeled>
        )}
      </Box>
      {record.status === 'pending' && (
        <Typography variant="body2" color="warning.main" sx={{ px: 2, pt: 1 }}>
          {translate('app.domain.pending_hint')}
        </Typography>
      )}
      <DnsRecords />
    </>
  );
}
