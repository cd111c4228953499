/** On a sign-in page reached because the server ended the session: says why the visitor is here. */
import { useSearchParams } from 'react-router-dom';
import { SESSION_ENDED_PARAM } from '../authProvider/sessionAuth';
import { Alert } from './ui';
import { usePublicI18n } from './usePublicI18n';

export function SessionEndedNotice() {
  const { t } = usePublicI18n();
  const [search] = useSearchParams();
  if (!search.has(SESSION_ENDED_PARAM)) return null;
  return (
    <Alert severity="info" className="session-ended">
      {t('app.session.expired')}
    </Alert>
  );
}
