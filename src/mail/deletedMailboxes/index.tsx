/**
 * Deleted mailboxes (operators): what became of each, and the restore button while one is still
 * restorable. The mailbox list links here ("Recently deleted"), to those still restorable.
 */
import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import Alert from '@mui/material/Alert';
import { Button, useCanAccess, useNotify, useRecordContext, useRedirect, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { deletedMailbox } from '../../../resources/deleted_mailbox';
import { mailbox } from '../../../resources/mailbox';
import { pathOf } from '../../../resources/define';
import { useAreaCall } from '../../area/useAreaCall';
import { confirm } from '../../dialogs/store';
import type { Screen, ScreenExtension, ScreenFeature } from '../../screens/screen';
import { useScreenPaths } from '../../screens/paths';

const deletedPath = pathOf(deletedMailbox, 'manage');

function RestoreButton() {
  const record = useRecordContext();
  const call = useAreaCall();
  const notify = useNotify();
  const redirect = useRedirect();
  const translate = useTranslate();
  const mailboxes = useScreenPaths(pathOf(mailbox, 'manage'));
  // Whoever may delete a mailbox may restore one (resources/deleted_mailbox.ts).
  const { canAccess } = useCanAccess({ resource: pathOf(mailbox, 'manage'), action: 'delete' });
  if (!record || record.state !== 'pending' || !canAccess) return null;
  const address = String(record.address_unicode);
  const restore = async () => {
    if (!(await confirm(translate('app.mailbox.restore_confirm', { address }), translate('app.mailbox.restore')))) return;
    try {
      const restored = await call<{ id: number }>('POST', `${deletedPath}/restore`, { id: record.id });
      notify('app.mailbox.restored', { type: 'success', messageArgs: { address } });
      redirect(mailboxes.update(restored.id));
    } catch {
      // The WARNING alert has said why (capacity, domain gone, …).
    }
  };
  return (
    <Button label="app.mailbox.restore" onClick={restore} className="mailbox-restore">
      <RestoreFromTrashIcon />
    </Button>
  );
}

const deletedMailboxScreens: ScreenExtension = {
  representation: 'address_unicode',
  // Until when it can be restored matters more here than who deleted it (on its page).
  columns: () => ['address_unicode', 'state', 'owner_id', 'used_bytes', 'deleted_at', 'purge_after'],
  viewActions: ({ screen }: { screen: Screen }) => (screen.area === 'manage' ? <RestoreButton /> : null),
};

/** Above the operators' mailbox list: the way to the mailboxes that can still be restored. */
export function RecentlyDeletedLink() {
  const translate = useTranslate();
  const deleted = useScreenPaths(deletedPath);
  const filter = encodeURIComponent(JSON.stringify({ state: 'pending' }));
  return (
    <Alert
      severity="info"
      sx={{ mx: 2, my: 1 }}
      className="recently-deleted"
      action={
        <Button component={Link} to={`${deleted.list}?filter=${filter}`} label="app.mailbox.recently_deleted">
          <RestoreFromTrashIcon />
        </Button>
      }
    >
      {translate('app.mailbox.recently_deleted_hint')}
    </Alert>
  );
}

export const deletedMailboxes: ScreenFeature = { declaration: deletedMailbox, extension: deletedMailboxScreens, icon: RestoreFromTrashIcon };
