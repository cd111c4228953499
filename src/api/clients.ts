/**
 * The app's HTTP clients: public calls (empty Authentication header) and one per area with
 * that area's stored session. Every failure but 20000 and field errors (shown inline) shows
 * the WARNING alert with the translated server message; 20000 resets the area's stored session.
 */
import { customerSession, mailboxSession, operatorSession } from '../authProvider/session';
import { alert } from '../dialogs/store';
import { currentLocale, translate } from '../i18n';
import { createHttpClient } from './client';
import { SECOND_FACTOR_CODE, type ApiError } from './errors';
import { hasFieldErrors } from '../area/forms';

/** Field errors are shown beside their fields by the form that sent them; everything else in the WARNING alert. */
export function reportError(error: ApiError) {
  // A second factor being asked for is the sign-in's next step, not a failure.
  if (hasFieldErrors(error.errors) || error.code === SECOND_FACTOR_CODE) return;
  void alert('WARNING', translate(error.message, { _: error.message, ...error.params }));
}

const common = { onError: reportError, getLocale: currentLocale };

export const publicApi = createHttpClient({ ...common, getToken: () => '' });
export const customerApi = createHttpClient({ ...common, getToken: customerSession.token, onSessionReset: customerSession.reset });
export const operatorApi = createHttpClient({ ...common, getToken: operatorSession.token, onSessionReset: operatorSession.reset });
export const mailboxApi = createHttpClient({ ...common, getToken: mailboxSession.token, onSessionReset: mailboxSession.reset });
