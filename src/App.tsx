/**
 * The whole web app: the public pages, and the three react-admin areas (customers, operators,
 * mailbox owners) loaded only when a path of theirs is opened (code splitting keeps
 * react-admin out of the public pages). The public
 * pages are plain HTML and CSS (public/ui.tsx); MUI, its theme and baseline come with the
 * areas (react-admin's <Admin>) and with the dialogs (DialogHost), both loaded on demand.
 */
import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';
import { customerSession, mailboxSession, operatorSession, type SessionStore } from './authProvider/session';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { currentDialog, subscribe } from './dialogs/store';
import { translate } from './i18n';
import { PendingRoute, RouteProgress } from './progress/RouteProgress';
import { publicPages } from './public/pages';
import { PublicLayout } from './public/PublicLayout';
import { usePublicI18n } from './public/usePublicI18n';

const CustomerApp = lazy(() => import('./customer/CustomerApp'));
const OperatorApp = lazy(() => import('./operator/OperatorApp'));
const MailboxOwnerApp = lazy(() => import('./mailboxOwner/MailboxOwnerApp'));
// The dialogs (their text fields, menus and modals) load when first opened.
const DialogHost = lazy(() => import('./dialogs/DialogHost').then((m) => ({ default: m.DialogHost })));

let dialogsUsed = false;
function Dialogs() {
  usePublicI18n(); // re-render the open dialog when the language changes
  const open = useSyncExternalStore(subscribe, currentDialog) !== undefined;
  // Mounted from the first dialog on (and kept, so that closing animates).
  dialogsUsed ||= open;
  if (!dialogsUsed) return null;
  return (
    <Suspense fallback={null}>
      <DialogHost translate={translate} />
    </Suspense>
  );
}

/**
 * An area opens only with a stored session; without one the visitor goes straight to its
 * sign-in page (and back afterwards). Letting react-admin find out itself mounted the area
 * only to log out: its logout → store reset → re-render → logout loop pushed /login-manage
 * hundreds of times a second, and the sign-in page took seconds to appear.
 */
function Area({ app, session, login }: { app: ReactNode; session: SessionStore<unknown>; login: string }) {
  const location = useLocation();
  if (!session.isLoggedIn()) return <Navigate to={login} replace state={{ nextPathname: location.pathname, nextSearch: location.search }} />;
  return app;
}

export function App() {
  return (
    <>
      <RouteProgress />
      <Suspense fallback={<PendingRoute />}>
        <Routes>
          <Route path="/admin/*" element={<Area app={<CustomerApp />} session={customerSession} login="/login" />} />
          <Route path="/manage/*" element={<Area app={<OperatorApp />} session={operatorSession} login="/login-manage" />} />
          <Route path="/mail/*" element={<Area app={<MailboxOwnerApp />} session={mailboxSession} login="/mail/login" />} />
          <Route element={<PublicLayout />}>
            {publicPages.map(({ path, Page }) => (path === '/' ? <Route key={path} index element={<Page />} /> : <Route key={path} path={path} element={<Page />} />))}
          </Route>
          <Route path="*" element={<Navigate to="/404" replace />} />
        </Routes>
      </Suspense>
      <Dialogs />
    </>
  );
}
