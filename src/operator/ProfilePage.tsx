/** /manage/profile: who is signed in, and a password change. */
import Box from '@mui/material/Box';
import { useQuery } from '@tanstack/react-query';
import { Labeled, RecordContextProvider, TextField, FunctionField, Title, useTranslate } from 'react-admin';
import type { OperatorInfo } from '../authProvider/operator';
import { DateTimeField } from '../screens/fields';
import { PasswordCard } from '../area/PasswordCard';
import { SectionCard } from '../area/SectionCard';
import { useAreaCall } from '../area/useAreaCall';

export function OperatorProfilePage() {
  const call = useAreaCall();
  const translate = useTranslate();
  const { data } = useQuery({ queryKey: ['me', 'info'], queryFn: () => call<OperatorInfo>('POST', 'me/info') });
  return (
    <Box sx={{ mt: 2 }} className="operator-profile">
      <Title title="app.nav.profile" />
      {data && (
        <SectionCard title="app.profile.account_title">
          <RecordContextProvider value={data}>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 4 }}>
              <Labeled label="resources.admin.fields.username">
                <TextField source="username" />
              </Labeled>
              <Labeled label="resources.admin.fields.role">
                <FunctionField render={(r) => translate(`app.enum.role.${r.role}`)} />
              </Labeled>
              <Labeled label="resources.admin.fields.last_login_at">
                <DateTimeField source="last_login_at" />
              </Labeled>
              <Labeled label="resources.admin.fields.created_at">
                <DateTimeField source="created_at" />
              </Labeled>
            </Box>
          </RecordContextProvider>
        </SectionCard>
      )}
      <PasswordCard path="me/update_password" apiKeys />
    </Box>
  );
}
