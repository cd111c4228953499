/**
 * A new installation's first steps on the operator dashboard (for superadmins, who may take them
 * all), until all are done: a storage product for sale → outgoing mail tested → the mail
 * server named and in DNS → the e-mail templates made the provider's own. Each step reads
 * whether it is done from the installation's data and links to where it is done.
 */
import { useGetList, usePermissions, useTranslate } from 'react-admin';
import { FirstStepsCard } from '../area/FirstStepsCard';
import { mailServerGap, mailServerReady, useMailServer } from '../mail';
import { testMessageArrived, testMessageOutcome, useLastTestMessage } from '../outbox/OutgoingMail';

const one = { page: 1, perPage: 1 };

function InstallationSteps() {
  const translate = useTranslate();
  const products = useGetList('product', { pagination: one, sort: { field: 'id', order: 'DESC' }, filter: { kind: 'storage', visible: 1 } });
  const test = useLastTestMessage();
  const server = useMailServer();
  // Seeded templates were never saved since: the newest change tells whether anyone has.
  const templates = useGetList('email_template', { pagination: one, sort: { field: 'updated_at', order: 'DESC' } });
  if (products.isPending || test.isPending || server.isPending || templates.isPending) return null;
  const outcome = testMessageOutcome(test.last);
  const gap = server.data && mailServerGap(server.data);
  const edited = templates.data?.[0];
  return (
    <FirstStepsCard
      texts="app.operator_steps"
      className="operator-first-steps"
      steps={[
        { key: 'products', done: (products.total ?? 0) > 0, to: '/manage/product/create' },
        { key: 'mail', done: testMessageArrived(test.last), to: '/manage/mail_server', hint: outcome && translate(...outcome) },
        { key: 'hostname', done: mailServerReady(server.data), to: '/manage/mail_server', hint: gap && translate(gap[0], { _: gap[0], ...gap[1] }) },
        { key: 'templates', done: Boolean(edited && Date.parse(edited.updated_at) > Date.parse(edited.created_at)), to: '/manage/email_template' },
      ]}
    />
  );
}

export function OperatorFirstSteps() {
  const { permissions } = usePermissions<{ role: string }>();
  return permissions?.role === 'superadmin' ? <InstallationSteps /> : null;
}
