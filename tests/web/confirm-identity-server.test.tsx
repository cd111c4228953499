/**
 * Issue 33 (3.5) on the screens, against the real server in-process: turning the authenticator app
 * off, new recovery codes and a new API key ask for the password (or a current code) in their
 * dialog, and a wrong one shows the server's reason there, changing nothing.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setLocale } from '../../src/i18n';
import { startTestApp, type TestApp } from '../helpers/app';
import { signUpCustomer } from '../helpers/fixtures';
import { enrolTotp } from '../helpers/second-factor';
import { ProfilePage } from '../../src/customer/profile/ProfilePage';
import { renderArea } from './area-harness';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t?.close());
// The screens in Chinese, whatever the test browser's language (the setup clears the choice after each test).
beforeEach(() => setLocale('zh'));

const long = { timeout: 30_000 };
const input = (name: string) => document.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
const WRONG = '这既不是您的密码，也不是身份验证器应用中当前的验证码';

describe('asking for the password again', { timeout: 90_000 }, () => {
  it('When a customer turns the authenticator app off, then the dialog asks for the password; a wrong one is refused there and the app stays on; the right one turns it off', async () => {
    const customer = await signUpCustomer(t);
    await enrolTotp(t, 'admin', customer.token);
    renderArea(t, 'admin', '/admin/security', customer);
    await waitFor(() => expect(document.querySelector('.totp-status')).toHaveTextContent('已启用'), long);
    fireEvent.click(screen.getByRole('button', { name: '关闭' }));
    const dialog = await waitFor(() => document.querySelector<HTMLElement>('.totp-turn-off-dialog')!);
    expect(dialog).toHaveTextContent('关闭身份验证器应用？其恢复码也将失效。');
    expect(dialog).toHaveTextContent('您的密码，或身份验证器应用当前显示的验证码');

    fireEvent.change(input('confirmation'), { target: { value: 'not-my-password' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(dialog).toHaveTextContent(WRONG), long);
    expect((await t.get('/api/admin/second_factor/info', {}, { token: customer.token })).data.totp).toBe(true);

    fireEvent.change(input('confirmation'), { target: { value: customer.password } });
    fireEvent.click(within(dialog).getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(document.querySelector('.totp-status')).toHaveTextContent('未启用'), long);
    expect((await t.get('/api/admin/second_factor/info', {}, { token: customer.token })).data.totp).toBe(false);
  });

  it('When a customer asks for new recovery codes, then the dialog asks for the password first, and shows the ten new codes after it', async () => {
    const customer = await signUpCustomer(t);
    await enrolTotp(t, 'admin', customer.token);
    renderArea(t, 'admin', '/admin/security', customer);
    await waitFor(() => expect(document.querySelector('.totp-renew-codes')).not.toBeNull(), long);
    fireEvent.click(document.querySelector<HTMLElement>('.totp-renew-codes')!);
    const dialog = await waitFor(() => document.querySelector<HTMLElement>('.totp-renew-codes-dialog')!);
    fireEvent.click(within(dialog).getByRole('button', { name: '重新生成恢复码' }));
    // Nothing typed: asked for in the dialog, no call made.
    await waitFor(() => expect(dialog).toHaveTextContent('为确认是您本人，请输入您的密码或身份验证器应用中当前的验证码'));
    fireEvent.change(input('confirmation'), { target: { value: customer.password } });
    fireEvent.click(within(dialog).getByRole('button', { name: '重新生成恢复码' }));
    await waitFor(() => expect(document.querySelectorAll('.recovery-code')).toHaveLength(10), long);
  });

  it('When a customer makes an API key with a wrong password, then the form says so under the field and no key is made; with the password the key is shown', async () => {
    const customer = await signUpCustomer(t);
    renderArea(t, 'admin', '/admin/api-keys', customer);
    await waitFor(() => expect(document.querySelector('.api-keys-empty')).not.toBeNull(), long);
    fireEvent.click(screen.getByRole('button', { name: '新建 API 密钥' }));
    await waitFor(() => expect(input('name')).not.toBeNull());
    fireEvent.change(input('name'), { target: { value: 'Backup script' } });
    fireEvent.change(input('confirmation'), { target: { value: 'not-my-password' } });
    fireEvent.click(screen.getByRole('button', { name: '生成密钥' }));
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveTextContent(WRONG), long);
    expect((await t.get('/api/admin/api_key/list', {}, { token: customer.token })).data.total).toBe(0);

    fireEvent.change(input('confirmation'), { target: { value: customer.password } });
    fireEvent.click(screen.getByRole('button', { name: '生成密钥' }));
    await waitFor(() => expect(document.querySelector('.api-key-value')?.textContent).toMatch(/^mdk_/), long);
    expect((await t.get('/api/admin/api_key/list', {}, { token: customer.token })).data.total).toBe(1);
  });
});

describe('a password change that revokes the API keys', { timeout: 90_000 }, () => {
  it('When a customer changes the password and turns on "Also revoke all my API keys", then the key stops working and the page says so', async () => {
    const customer = await signUpCustomer(t);
    const key = (await t.post('/api/admin/api_key/create', { name: 'Script', access: 'read', confirmation: customer.password }, { token: customer.token })).data.key;
    const keyWorks = async () => (await t.post('/api/admin/me/info', {}, { token: '', headers: { authorization: `Bearer ${key}` } })).code === 0;
    renderArea(t, 'admin', '/admin/profile', customer, { Profile: ProfilePage });
    await waitFor(() => expect(input('old_password')).not.toBeNull(), long);
    const card = document.querySelector<HTMLElement>('.profile-password')!;
    expect(card).toHaveTextContent('同时撤销我的所有 API 密钥');
    expect(card).toHaveTextContent('使用这些密钥的脚本会立即停止工作');
    fireEvent.change(input('old_password'), { target: { value: customer.password } });
    fireEvent.change(input('password'), { target: { value: 'second-pass-2' } });
    fireEvent.change(input('confirm'), { target: { value: 'second-pass-2' } });
    fireEvent.click(within(card).getByRole('switch'));
    fireEvent.click(within(card).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(document.body).toHaveTextContent('您的所有 API 密钥已撤销'), long);
    expect(await keyWorks()).toBe(false);
  });
});
