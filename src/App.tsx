/**
 * The whole web app: the public pages, and the two react-admin areas loaded only when a path
 * of theirs is opened (code splitting keeps react-admin out of the public pages).
 */
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { lazy, Suspense, type ReactNode } from 'react';
import { customerSession, operatorSession, type SessionStore } from './authProvider/session';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { DialogHost } from './dialogs/DialogHost';
import { translate } from './i18n';
import { PendingRoute, RouteProgress } from './progress/RouteProgress';
import { ForgotPasswordPage } from './public/ForgotPasswordPage';
import { IndexPage } from './public/IndexPage';
import { LoginPage } from './public/LoginPage';
import { NotFoundPage } from './public/NotFoundPage';
import { OperatorLoginPage } from './public/OperatorLoginPage';
import { PublicLayout } from './public/PublicLayout';
import { RegisterPage } from './public/RegisterPage';
import { usePublicI18n } from './public/usePublicI18n';
import { VerifyPage } from './public/VerifyPage';
import { publicTheme } from './theme';

const CustomerApp = lazy(() => import('./customer/CustomerApp'));
const OperatorApp = lazy(() => import('./operator/OperatorApp'));

function Dialogs() {
  usePublicI18n(); // re-render the open dialog when the language changes
  return <DialogHost translate={translate} />;
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
    <ThemeProvider theme={publicTheme}>
      <CssBaseline />
      <RouteProgress />
      <Suspense fallback={<PendingRoute />}>
        <Routes>
          <Route path="/admin/*" element={<Area app={<CustomerApp />} session={customerSession} login="/login" />} />
          <Route path="/manage/*" element={<Area app={<OperatorApp />} session={operatorSession} login="/login-manage" />} />
          <Route element={<PublicLayout />}>
            <Route index element={<IndexPage />} />
            <Route path="/login" element={<LoginPage />} />
            <Route path="/register" element={<RegisterPage />} />
            <Route path="/forgot_password" element={<ForgotPasswordPage />} />
            <Route path="/login-manage" element={<OperatorLoginPage />} />
            <Route path="/verify" element={<VerifyPage />} />
            <Route path="/404" element={<NotFoundPage />} />
          </Route>
          <Route path="*" element={<Navigate to="/404" replace />} />
        </Routes>
      </Suspense>
      <Dialogs />
    </ThemeProvider>
  );
}
