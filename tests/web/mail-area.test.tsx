/**
 * The mailbox owners' area (/mail), in Chinese (the app's default language), against the mail
 * API of the contract kept in memory: what the owner sees on each page, and what each page sends.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mailboxSession } from '../../src/authProvider/session';
import { MailboxLoginPage } from '../../src/public/MailboxLoginPage';
import { fakeMailApi } from './fake-mail-api';
import { renderMailArea } from './mail-area-harness';

const long = { timeout: 15_000 };
const input = (name: string) => document.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`)!;
const type = (name: string, value: string) => fireEvent.change(input(name), { target: { value } });
/** Clicks a card's save button once it takes clicks (a form revalidates a moment after each change). */
async function save(card: HTMLElement) {
  const button = within(card).getByRole('button', { name: /保存/ });
  await waitFor(() => expect(button).toBeEnabled());
  fireEvent.click(button);
}

afterEach(() => vi.unstubAllGlobals());

describe('the mailbox owners’ area', { timeout: 30_000 }, () => {
  it('When the owner signs in at /mail/login, then the session is stored under "mailbox" and the overview opens', async () => {
    const api = fakeMailApi();
    vi.stubGlobal('fetch', api.fetch);
    render(
      <MemoryRouter initialEntries={['/mail/login']}>
        <Routes>
          <Route path="/mail/login" element={<MailboxLoginPage />} />
          <Route path="/mail" element={<div className="overview-opened" />} />
        </Routes>
      </MemoryRouter>,
    );
    await waitFor(() => expect(screen.getByText('登录您的邮箱')).toBeInTheDocument());
    type('email', 'ann@example.com');
    type('password', 'secret-pass-1');
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(document.querySelector('.overview-opened')).not.toBeNull(), long);
    expect(api.calls('/api/mail/login/login')[0].body).toEqual({ email: 'ann@example.com', password: 'secret-pass-1' });
    expect(mailboxSession.get()).toEqual({ id: 7, address: 'ann@example.com', token: api.token() });
  });

  it('When nobody is signed in, then an area page sends the visitor to /mail/login', async () => {
    const api = fakeMailApi();
    renderMailArea(api, '/mail/forwarding', { signedIn: false });
    await waitFor(() => expect(document.querySelector('.elsewhere')?.getAttribute('data-path')).toMatch(/^\/mail\/login/), long);
  });

  it('When the owner opens the overview, then it shows the address, the usage bar, the aliases, the recent sign-ins and every page in the menu', async () => {
    const api = fakeMailApi();
    renderMailArea(api, '/mail');
    await waitFor(() => expect(document.querySelector('.overview-address')).toHaveTextContent('ann@example.com'), long);
    expect(document.querySelector('.usage-bar')).toHaveTextContent('256 MiB / 1 GiB (25%)');
    expect(screen.getByText('42 封邮件')).toBeInTheDocument();
    expect([...document.querySelectorAll('.overview-alias')].map((e) => e.textContent)).toEqual(['sales@example.com', 'ann@example.org']);
    expect(document.querySelector('.overview-sign-in')).toHaveTextContent('203.0.113.9');
    expect(document.querySelector('.overview-sign-in')).toHaveTextContent('Firefox on Linux');
    await waitFor(() => expect(document.querySelector('.overview-ooo')).toHaveTextContent('关闭'));
    const menu = screen.getAllByRole('menuitem').map((item) => item.textContent);
    expect(menu).toEqual(['概览', '自动回复', '邮件转发', '垃圾邮件', '搬迁我的邮件', '应用专用密码', '密码', '两步验证', '登录设备', '邮件客户端设置']);
    expect(screen.getByRole('link', { name: '查看设置' })).toHaveAttribute('href', '/mail/settings');
  });

  it('When the owner turns the out-of-office reply on without a subject, then the refusal is beside the field and nothing is sent', async () => {
    const api = fakeMailApi();
    renderMailArea(api, '/mail/out-of-office');
    await waitFor(() => expect(document.querySelector('.out-of-office-card')).not.toBeNull(), long);
    fireEvent.click(input('enabled'));
    type('body', 'Back on Monday.');
    await save(document.querySelector('.out-of-office-card')!);
    await waitFor(() => expect(document.querySelector('.ra-input-subject')).toHaveTextContent('必填'));
    expect(api.calls('/api/mail/rules/update_out_of_office')).toEqual([]);
  });

  it('When the owner sets an out-of-office reply from and until a time of Asia/Shanghai, then the API gets those moments in UTC and the page says until when it is on', async () => {
    const api = fakeMailApi();
    renderMailArea(api, '/mail/out-of-office');
    await waitFor(() => expect(document.querySelector('.ooo-state-off')).toHaveTextContent('未开启自动回复'), long);
    expect(input('time_zone').value).toBe('Asia/Shanghai');
    fireEvent.click(input('enabled'));
    type('starts_at', '2026-11-20 09:00');
    type('ends_at', '2099-12-31 18:00');
    type('subject', '休假中');
    type('body', '我 12 月回来。');
    type('interval_days', '3');
    await save(document.querySelector('.out-of-office-card')!);
    await waitFor(() => expect(api.calls('/api/mail/rules/update_out_of_office')).toHaveLength(1), long);
    expect(api.calls('/api/mail/rules/update_out_of_office')[0].body).toEqual({
      enabled: true,
      time_zone: 'Asia/Shanghai',
      starts_at: '2026-11-20T01:00:00.000Z',
      ends_at: '2099-12-31T10:00:00.000Z',
      subject: '休假中',
      body: '我 12 月回来。',
      interval_days: 3,
    });
    await waitFor(() => expect(document.querySelector('.ooo-state-on')).toHaveTextContent('自动回复已开启，直到 2099年12月31日 18:00 (Asia/Shanghai)'), long);
    expect(document.querySelector('.rules-last-change')).toHaveTextContent('邮箱用户（ann@example.com）');
  });

  it('When the end comes before the start, then the end is refused beside it', async () => {
    const api = fakeMailApi();
    renderMailArea(api, '/mail/out-of-office');
    await waitFor(() => expect(document.querySelector('.out-of-office-card')).not.toBeNull(), long);
    type('starts_at', '2026-12-10 09:00');
    type('ends_at', '2026-12-01 09:00');
    await save(document.querySelector('.out-of-office-card')!);
    await waitFor(() => expect(document.querySelector('.ra-input-ends_at')).toHaveTextContent('结束时间必须晚于开始时间'));
    expect(api.calls('/api/mail/rules/update_out_of_office')).toEqual([]);
  });

  it('When the owner forwards to two addresses without keeping a copy, then both are sent and the page says so; an eleventh address cannot be added', async () => {
    const api = fakeMailApi();
    renderMailArea(api, '/mail/forwarding');
    await waitFor(() => expect(document.querySelector('.forwarding-state-off')).not.toBeNull(), long);
    fireEvent.click(input('enabled'));
    type('addresses.0', 'ann@elsewhere.example');
    fireEvent.click(screen.getByRole('button', { name: '添加地址' }));
    type('addresses.1', 'desk@elsewhere.example');
    fireEvent.click(input('keep_copy'));
    await save(document.querySelector('.forwarding-card')!);
    await waitFor(() => expect(api.calls('/api/mail/rules/update_forwarding')).toHaveLength(1), long);
    expect(api.calls('/api/mail/rules/update_forwarding')[0].body).toEqual({ enabled: true, addresses: ['ann@elsewhere.example', 'desk@elsewhere.example'], keep_copy: false });
    await waitFor(() => expect(document.querySelector('.forwarding-state-on')).toHaveTextContent('邮件转发到 ann@elsewhere.example, desk@elsewhere.example，不在此保留副本。'), long);
    for (let i = 2; i < 10; i++) fireEvent.click(screen.getByRole('button', { name: '添加地址' }));
    expect(screen.getByRole('button', { name: '添加地址' })).toBeDisabled();
  });

  it('When forwarding is on with no address or a malformed one, then the list is refused beside it', async () => {
    const api = fakeMailApi();
    renderMailArea(api, '/mail/forwarding');
    await waitFor(() => expect(document.querySelector('.forwarding-card')).not.toBeNull(), long);
    fireEvent.click(input('enabled'));
    await save(document.querySelector('.forwarding-card')!);
    await waitFor(() => expect(document.querySelector('.address-list-helper')).toHaveTextContent('请至少填写一个转发地址'));
    type('addresses.0', 'not-an-address');
    await save(document.querySelector('.forwarding-card')!);
    await waitFor(() => expect(document.querySelector('.address-list-helper')).toHaveTextContent('每一行都必须是邮箱地址'));
    expect(api.calls('/api/mail/rules/update_forwarding')).toEqual([]);
  });

  it('When the owner makes an app password, then it is shown once with a copy button, and listed without it; revoking asks first', async () => {
    const api = fakeMailApi();
    // A browser's clipboard answers a moment later, not in the same tick.
    const writeText = vi.fn(() => new Promise<void>((resolve) => setTimeout(resolve, 5)));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderMailArea(api, '/mail/app-passwords');
    await waitFor(() => expect(document.querySelector('.app-passwords-empty')).toHaveTextContent('还没有应用专用密码'), long);
    fireEvent.click(screen.getByRole('button', { name: '新建应用专用密码' }));
    await waitFor(() => expect(input('name')).not.toBeNull());
    type('name', 'Phone');
    fireEvent.click(screen.getByRole('button', { name: '创建' }));
    await waitFor(() => expect(document.querySelector('.app-password-value')).toHaveTextContent('abcd-efgh-jkmn-pqrs'), long);
    expect(api.calls('/api/mail/app_password/create')[0].body).toEqual({ name: 'Phone' });
    expect(screen.getByText(/此密码只显示这一次/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '复制' }));
    // The label changes only once the clipboard has answered, after writeText was called.
    await waitFor(() => expect(screen.getByRole('button', { name: '已复制' })).toBeInTheDocument());
    expect(writeText).toHaveBeenCalledWith('abcd-efgh-jkmn-pqrs');
    fireEvent.click(screen.getByRole('button', { name: '完成' }));
    await waitFor(() => expect(document.querySelector('.app-password-value')).toBeNull());
    await waitFor(() => expect(document.querySelector('.app-password-name')).toHaveTextContent('Phone'));
    const row = document.querySelector<HTMLElement>('.app-password-row')!;
    expect(row).toHaveTextContent('从未使用');
    expect(row).toHaveTextContent('来自 198.51.100.7');
    expect(document.body).not.toHaveTextContent('abcd-efgh-jkmn-pqrs');

    const { id } = api.state.appPasswords[0];
    fireEvent.click(within(row).getByRole('button', { name: '撤销' }));
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveTextContent('撤销应用专用密码“Phone”？'));
    fireEvent.click(screen.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('/api/mail/app_password/delete')).toEqual([]);

    fireEvent.click(within(document.querySelector<HTMLElement>('.app-password-row')!).getByRole('button', { name: '撤销' }));
    await waitFor(() => expect(screen.getByRole('dialog')).toBeInTheDocument());
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(document.querySelector('.app-passwords-empty')).not.toBeNull(), long);
    expect(api.calls('/api/mail/app_password/delete').map((r) => r.body)).toEqual([{ id }]);
  });

  it('When the owner changes the password with a wrong current one, then the refusal is beside it; with the right one, the change is confirmed', async () => {
    const api = fakeMailApi();
    renderMailArea(api, '/mail/password');
    await waitFor(() => expect(document.querySelector('.profile-password')).not.toBeNull(), long);
    expect(screen.getByText('至少 8 个字符。')).toBeInTheDocument();
    type('old_password', 'wrong-pass-1');
    type('password', 'new-secret-2');
    type('confirm', 'new-secret-2');
    await save(document.querySelector('.profile-password')!);
    await waitFor(() => expect(api.calls('/api/mail/me/update_password')).toHaveLength(1), long);
    await waitFor(() => expect(document.querySelector('.ra-input-old_password')).toHaveTextContent('当前密码不正确'), long);
    type('old_password', 'secret-pass-1');
    await save(document.querySelector('.profile-password')!);
    await waitFor(() => expect(api.calls('/api/mail/me/update_password')).toHaveLength(2), long);
    await waitFor(() => expect(screen.getByText('密码已修改，您在其他设备上的登录已退出。')).toBeInTheDocument(), long);
    expect(api.calls('/api/mail/me/update_password')[1].body).toEqual({ old_password: 'secret-pass-1', password: 'new-secret-2' });
  });

  it('When the owner requires app passwords for mail programs, then the setting is sent and the client settings say which password to use', async () => {
    const api = fakeMailApi();
    renderMailArea(api, '/mail/settings');
    await waitFor(() => expect(document.querySelector('.client-host')).toHaveTextContent('mail.example.net'), long);
    expect(document.querySelector('.client-settings')).toHaveTextContent('该邮箱的密码');
    fireEvent.click(input('app_passwords_only'));
    await waitFor(() => expect(api.calls('/api/mail/me/update_settings')).toHaveLength(1), long);
    expect(api.calls('/api/mail/me/update_settings')[0].body).toEqual({ app_passwords_only: true });
    await waitFor(() => expect(document.querySelector('.client-settings')).toHaveTextContent('应用专用密码（邮箱密码将被拒绝）'), long);
    expect(input('app_passwords_only')).toBeChecked();
  });

  it('When the owner sets spam scores the wrong way round, then the refusal is beside the field; set right, the page says what applies; an allowed sender is listed', async () => {
    const api = fakeMailApi();
    renderMailArea(api, '/mail/spam');
    await waitFor(() => expect(document.querySelector('.spam-effective')).toHaveTextContent('6 分起为垃圾邮件，15 分起拒收（服务商的默认设置）'), long);
    fireEvent.mouseDown(within(document.querySelector<HTMLElement>('.spam-filter')!).getByRole('combobox'));
    fireEvent.click(await screen.findByRole('option', { name: '开启' }));
    const score = (name: string) => document.querySelector<HTMLInputElement>(`.spam-${name} input`)!;
    fireEvent.change(score('junk'), { target: { value: '9' } });
    fireEvent.change(score('reject'), { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: '应用过滤设置' }));
    await waitFor(() => expect(document.querySelector('.spam-junk')).toHaveTextContent('垃圾邮件分数必须低于拒收分数。'), long);
    fireEvent.change(score('junk'), { target: { value: '4.5' } });
    fireEvent.change(score('reject'), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: '应用过滤设置' }));
    await waitFor(() => expect(document.querySelector('.spam-effective')).toHaveTextContent('4.5 分起为垃圾邮件，12 分起拒收（本邮箱的设置）'), long);
    expect(api.calls('/api/mail/spam/update').at(-1)?.body).toEqual({ filter: 'on', junk_score: 4.5, reject_score: 12 });

    fireEvent.change(document.querySelector('.spam-sender-input input')!, { target: { value: 'Friend@Partner.example' } });
    fireEvent.click(screen.getByRole('button', { name: '添加' }));
    await waitFor(() => expect(document.querySelector('.spam-sender')).toHaveTextContent('friend@partner.example'), long);
    expect(api.calls('/api/mail/spam_list/create')[0].body).toEqual({ sender: 'Friend@Partner.example', action: 'allow' });
  });

  it('When the server ends the session, then the next page sends the owner to /mail/login saying why', async () => {
    const api = fakeMailApi();
    renderMailArea(api, '/mail/forwarding');
    await waitFor(() => expect(document.querySelector('.forwarding-card')).not.toBeNull(), long);
    api.endSession();
    await act(async () => fireEvent.click(screen.getByRole('menuitem', { name: '应用专用密码' })));
    await waitFor(() => expect(document.querySelector('.elsewhere')?.getAttribute('data-path')).toBe('/mail/login?session_ended=1'), long);
    expect(mailboxSession.isLoggedIn()).toBe(false);
  });
});
