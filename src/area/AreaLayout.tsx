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

/**
 * On a phone the title (often a record's name: an address, a domain) gets a row of its own
 * under the buttons and wraps there, so that it is read in full; the bar then stays in the
 * page's flow (sticky) instead of over it, however many lines the title takes.
 */
const phoneAppBar = {
  position: { xs: 'sticky', sm: 'fixed' },
  '& .RaAppBar-toolbar': { flexWrap: { xs: 'wrap', sm: 'nowrap' } },
  '& .RaAppBar-menuButton': { mr: { xs: 'auto', sm: '0.2em' } },
  '& #react-admin-title': {
    order: { xs: 1, sm: 0 },
    flexBasis: { xs: '100%', sm: 'auto' },
    whiteSpace: { xs: 'normal', sm: 'nowrap' },
    overflowWrap: 'anywhere',
    fontSize: { xs: '1.05rem', sm: undefined },
    lineHeight: { xs: 1.3, sm: undefined },
    px: { xs: 1, sm: 0 },
    pb: { xs: 1, sm: 0 },
  },
} as const;

function AreaAppBar() {
  return (
    <AppBar color="primary" toolbar={<LocalesMenuButton />} sx={phoneAppBar}>
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
      <Layout appBar={AreaAppBar} menu={menu as never} sx={{ minWidth: 0, '& .RaLayout-content': { minWidth: 0 }, '& .RaLayout-appFrame': { mt: { xs: 0, sm: 6 } } }}>
        <QuietAfterAlert>{children}</QuietAfterAlert>
      </Layout>
    );
  };
}
