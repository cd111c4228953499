/** The mailbox owners' area rendered in jsdom against the in-memory mail API (fake-mail-api.ts) or the real server. */
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { reportError } from '../../src/api/clients';
import { createHttpClient } from '../../src/api/client';
import { areaAdmin } from '../../src/area/AreaAdmin';
import { createArea } from '../../src/area/createArea';
import { createMailboxAuthProvider } from '../../src/authProvider/mailbox';
import { mailboxSession } from '../../src/authProvider/session';
import { DialogHost } from '../../src/dialogs/DialogHost';
import { translate } from '../../src/i18n';
import { mailboxOwnerFeatures } from '../../src/mailboxOwner/features';
import { MailboxOverview } from '../../src/mailboxOwner/Overview';
import type { fakeMailApi } from './fake-mail-api';

function Elsewhere() {
  const location = useLocation();
  return <div className="elsewhere" data-path={`${location.pathname}${location.search}`} />;
}

/** Renders the area at a path over the in-memory API, signed in (unless `signedIn` is false); a new call means a fresh page load. */
export function renderMailArea(api: ReturnType<typeof fakeMailApi>, path: string, { signedIn = true } = {}) {
  return renderMailAreaOver(api.fetch, path, signedIn ? { id: api.state.me.id, address: api.state.me.address, token: api.token() } : undefined);
}

/** Renders the area at a path over any fetch (the real server's, through inject), with a session or none. */
export function renderMailAreaOver(fetch: typeof globalThis.fetch, path: string, session?: { id: number; address: string; token: string }) {
  if (session) mailboxSession.set(session);
  const client = createHttpClient({ fetch, getToken: mailboxSession.token, onSessionReset: mailboxSession.reset, onError: reportError });
  const publicApi = createHttpClient({ fetch, getToken: () => '', onError: reportError });
  const area = createArea({ area: 'mail', features: mailboxOwnerFeatures, api: client, publicApi, storePrefix: `test-mail-${Math.random()}`, authProvider: createMailboxAuthProvider });
  const AreaApp = areaAdmin({ area, Dashboard: MailboxOverview, dashboardLabel: 'app.mail_area.menu.overview' });
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/mail/login" element={<Elsewhere />} />
        <Route path="/mail/*" element={<AreaApp />} />
        <Route path="*" element={<Elsewhere />} />
      </Routes>
      <DialogHost translate={translate} />
    </MemoryRouter>,
  );
}
