/**
 * The public pages, one list: App.tsx mounts them in the public layout, and the browser walk
 * (tests/e2e/route-walk.e2e.ts) visits each. The home page comes with the first download; the
 * others load when first opened, so that the first paint waits for less.
 */
import { lazy, type ComponentType } from 'react';
import { IndexPage } from './IndexPage';
import { NotFoundPage } from './NotFoundPage';

export interface PublicPage {
  path: string;
  Page: ComponentType;
}

export const publicPages: readonly PublicPage[] = [
  { path: '/', Page: IndexPage },
  { path: '/login', Page: lazy(() => import('./LoginPage').then((m) => ({ default: m.LoginPage }))) },
  { path: '/register', Page: lazy(() => import('./RegisterPage').then((m) => ({ default: m.RegisterPage }))) },
  { path: '/forgot_password', Page: lazy(() => import('./ForgotPasswordPage').then((m) => ({ default: m.ForgotPasswordPage }))) },
  { path: '/login-manage', Page: lazy(() => import('./OperatorLoginPage').then((m) => ({ default: m.OperatorLoginPage }))) },
  { path: '/mail/login', Page: lazy(() => import('./MailboxLoginPage').then((m) => ({ default: m.MailboxLoginPage }))) },
  { path: '/verify', Page: lazy(() => import('./VerifyPage').then((m) => ({ default: m.VerifyPage }))) },
  { path: '/accept-invitation', Page: lazy(() => import('./AcceptInvitationPage').then((m) => ({ default: m.AcceptInvitationPage }))) },
  { path: '/404', Page: NotFoundPage },
];
