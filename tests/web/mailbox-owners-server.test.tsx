/**
 * The mailbox owners' screens against the real server, in-process (issue 21): the owner's own
 * pages, and the same rules and app-password count on the mailbox's page of the customer area.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { mailboxOwner } from '../helpers/mail-fixtures';
import { injectFetch, renderArea } from './area-harness';
import { renderMailAreaOver } from './mail-area-harness';

let t: TestApp;
let owner: Awaited<ReturnType<typeof mailboxOwner>>;

beforeAll(async () => {
  t = await startTestApp();
  owner = await mailboxOwner(t);
}, 60_000);
afterAll(() => t?.close());

const long = { timeout: 30_000 };
const input = (name: string, root: ParentNode = document) => root.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`)!;
const type = (name: string, value: string, root: ParentNode = document) => fireEvent.change(input(name, root), { target: { value } });
async function save(card: HTMLElement) {
  const button = within(card).getByRole('button', { name: /保存/ });
  await waitFor(() => expect(button).toBeEnabled());
  fireEvent.click(button);
}
const rulesOf = async () => (await t.get('/api/mail/rules/info', {}, { token: owner.token })).data;

describe('the mailbox owners’ screens on the real API', { timeout: 90_000 }, () => {
  it('When the owner sets an out-of-office reply on /mail/out-of-office, then the server keeps it with its zone and says who set it', async () => {
    renderMailAreaOver(injectFetch(t), '/mail/out-of-office', { id: owner.id, address: owner.address, token: owner.token });
    await waitFor(() => expect(document.querySelector('.out-of-office-card')).not.toBeNull(), long);
    fireEvent.click(input('enabled'));
    fireEvent.change(input('time_zone'), { target: { value: 'Asia/Shang' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Asia/Shanghai' }));
    type('ends_at', '2099-01-31 18:00');
    type('subject', 'Away');
    type('body', 'Back in February.');
    await save(document.querySelector('.out-of-office-card')!);
    await waitFor(() => expect(document.querySelector('.ooo-state-on')).toHaveTextContent('2099年1月31日 18:00'), long);
    const rules = await rulesOf();
    expect(rules.out_of_office).toMatchObject({ enabled: true, subject: 'Away', body: 'Back in February.', interval_days: 7 });
    expect(new Date(rules.out_of_office.ends_at).toISOString()).toBe('2099-01-31T10:00:00.000Z');
    expect(rules.updated_by).toBe(`mailbox:${owner.address}`);
  });

  it('When the owner makes an app password and revokes it, then the list shows it in between and the server has none after', async () => {
    renderMailAreaOver(injectFetch(t), '/mail/app-passwords', { id: owner.id, address: owner.address, token: owner.token });
    await waitFor(() => expect(document.querySelector('.app-passwords-empty')).not.toBeNull(), long);
    fireEvent.click(screen.getByRole('button', { name: '新建应用专用密码' }));
    await waitFor(() => expect(input('name')).not.toBeNull());
    type('name', 'Thunderbird');
    fireEvent.click(screen.getByRole('button', { name: '创建' }));
    await waitFor(() => expect(document.querySelector('.app-password-value')?.textContent).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/), long);
    fireEvent.click(screen.getByRole('button', { name: '完成' }));
    await waitFor(() => expect(document.querySelector('.app-password-value')).toBeNull());
    await waitFor(() => expect(document.querySelector('.app-password-name')).toHaveTextContent('Thunderbird'), long);
    fireEvent.click(within(document.querySelector<HTMLElement>('.app-password-row')!).getByRole('button', { name: '撤销' }));
    await waitFor(() => expect(screen.getByRole('dialog')).toBeInTheDocument());
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(document.querySelector('.app-passwords-empty')).not.toBeNull(), long);
    expect((await t.get('/api/mail/app_password/list', {}, { token: owner.token })).data.total).toBe(0);
  });

  it('When the customer opens the mailbox, then its page shows the owner’s out-of-office reply, the app password count and the app-passwords-only switch; forwarding set there reaches the owner', async () => {
    await t.post('/api/mail/app_password/create', { name: 'Phone' }, { token: owner.token });
    renderArea(t, 'admin', `/admin/email/update?id=${owner.id}`, owner.customer);
    await waitFor(() => expect(document.querySelector('.mailbox-rules .ooo-state-on')).not.toBeNull(), long);
    expect(document.querySelector('.mailbox-rules .rules-last-change')).toHaveTextContent(`邮箱用户（${owner.address}）`);
    expect(document.querySelector('.mailbox-app-passwords')).toHaveTextContent('1 个');
    expect(input('app_passwords_only')).not.toBeChecked();
    const forwarding = document.querySelector<HTMLElement>('.mailbox-rules .forwarding-card')!;
    fireEvent.click(input('enabled', forwarding));
    type('addresses.0', 'desk@elsewhere.example', forwarding);
    await save(forwarding);
    await waitFor(() => expect(forwarding.querySelector('.forwarding-state-on')).toHaveTextContent('desk@elsewhere.example'), long);
    const rules = await rulesOf();
    expect(rules.forwarding).toEqual({ enabled: true, addresses: ['desk@elsewhere.example'], keep_copy: true });
    expect(rules.updated_by).toMatch(/^customer:/);
  });

  it('When the customer forwards the mailbox to its own address, then the refusal is explained beside the addresses and nothing changes', async () => {
    const before = await rulesOf();
    renderArea(t, 'admin', `/admin/email/update?id=${owner.id}`, owner.customer);
    await waitFor(() => expect(document.querySelector('.mailbox-rules .forwarding-card')).not.toBeNull(), long);
    const forwarding = document.querySelector<HTMLElement>('.mailbox-rules .forwarding-card')!;
    type('addresses.0', owner.address, forwarding);
    await save(forwarding);
    await waitFor(() => expect(forwarding.querySelector('.address-list-helper')).toHaveTextContent(`发往 ${owner.address} 的邮件本来就会进入此邮箱`), long);
    expect(document.querySelector('.alert-warning')).toBeNull();
    expect(await rulesOf()).toEqual(before);
  });
});
