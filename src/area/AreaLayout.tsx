/**
 * The layout of both areas: react-admin's, with the language switch in the app bar, a
 * progress bar instead of the loading spinner, and no second report of an error the WARNING
 * alert has just shown.
 */
import { useCallback, type ReactNode } from 'react';
import {
  AddNotificationContext,
  AppBar,
  Layout,
  LocalesMenuButton,
  TitlePortal,
  useAddNotificationContext,
  useLoading,
  type NotificationPayload,
} from 'react-admin';
import { alertedWithin } from '../dialogs/store';
import { ProgressBar } from '../progress/ProgressBar';

function LoadingBar() {
  return useLoading() ? <ProgressBar className="data-progress" /> : null;
}

function AreaAppBar() {
  return (
    <AppBar color="primary" toolbar={<LocalesMenuButton />}>
      <TitlePortal />
      <LoadingBar />
    </AppBar>
  );
}

function QuietAfterAlert({ children }: { children: ReactNode }) {
  const add = useAddNotificationContext();
  const filtered = useCallback(
    (notification: NotificationPayload) => {
      if (notification.type === 'error' && alertedWithin(2000)) return;
      // Field errors are shown beside the fields (see area/forms.ts), also in forms other screens add.
      if (notification.message === 'ra.message.invalid_form') return;
      add(notification);
    },
    [add],
  );
  return <AddNotificationContext.Provider value={filtered}>{children}</AddNotificationContext.Provider>;
}

/** Wide lists scroll inside their card: react-admin's layout would otherwise grow wider than the window (its root is fit-content). */
export function areaLayout(menu: () => ReactNode) {
  return function AreaLayout({ children }: { children: ReactNode }) {
    return (
      <Layout appBar={AreaAppBar} menu={menu as never} sx={{ minWidth: 0, '& .RaLayout-content': { minWidth: 0 } }}>
        <QuietAfterAlert>{children}</QuietAfterAlert>
      </Layout>
    );
  };
}
