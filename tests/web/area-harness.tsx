/**
 * A react-admin area of the web app rendered in jsdom against the real server, in-process:
 * the area's own data provider, auth provider and HTTP client, whose fetch goes through
 * Fastify's inject (no network, no stand-in for our API).
 */
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { reportError } from '../../src/api/clients';
import { createHttpClient } from '../../src/api/client';
import { areaAdmin } from '../../src/area/AreaAdmin';
import { createArea } from '../../src/area/createArea';
import { createCustomerAuthProvider } from '../../src/authProvider/customer';
import { createOperatorAuthProvider } from '../../src/authProvider/operator';
import { customerSession, operatorSession } from '../../src/authProvider/session';
import { DialogHost } from '../../src/dialogs/DialogHost';
import { translate } from '../../src/i18n';
import type { TestApp } from '../helpers/app';
import { operatorLogin } from '../helpers/fixtures';
import { featuresOf } from './areas';

export function injectFetch(t: TestApp): typeof fetch {
  return (async (url: string, init: RequestInit = {}) => {
    const reply = await t.app.inject({
      method: (init.method ?? 'GET') as 'GET' | 'POST',
      url,
      headers: init.headers as Record<string, string>,
      payload: init.body as string | undefined,
    });
    return new Response(reply.body, { status: reply.statusCode, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
}

/** The first operator, signed in: what renderArea needs for the operators' area. */
export async function signedInOperator(t: TestApp): Promise<{ id: number; token: string; username: string }> {
  const token = await operatorLogin(t);
  const me = (await t.post('/api/manage/me/info', {}, { token })).data;
  return { id: me.id, token, username: me.username };
}

/** Renders an area at a path, signed in with the token; a new call means a fresh page load (new caches). */
export function renderArea(
  t: TestApp,
  area: 'admin' | 'manage',
  path: string,
  session: { id: number; token: string; email?: string; username?: string },
  /** The area's real profile page instead of a stand-in (/admin/profile, /manage/profile). */
  pages: { Profile?: () => ReactElement } = {},
) {
  const store = area === 'admin' ? customerSession : operatorSession;
  store.set({ id: session.id, token: session.token, email: session.email ?? '', username: session.username ?? '', is_verified: 1 } as never);
  const fetch = injectFetch(t);
  const api = createHttpClient({ fetch, getToken: store.token, onSessionReset: store.reset, onError: reportError });
  const publicApi = createHttpClient({ fetch, getToken: () => '', onError: reportError });
  const made = createArea({
    area,
    features: featuresOf[area],
    api,
    publicApi,
    storePrefix: `test-${area}-${Math.random()}`,
    authProvider: area === 'admin' ? createCustomerAuthProvider : createOperatorAuthProvider,
  });
  const AreaApp = areaAdmin({
    area: made,
    Dashboard: () => <div className="dashboard" />,
    Profile: pages.Profile ?? (() => <div className="profile" />),
  });
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path={`/${area}/*`} element={<AreaApp />} />
        <Route path="/404" element={<div className="app-404" />} />
        <Route path="*" element={<div className="elsewhere" />} />
      </Routes>
      <DialogHost translate={translate} />
    </MemoryRouter>,
  );
}
