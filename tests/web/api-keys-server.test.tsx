/**
 * The customers' API keys page against the real server, in-process: a key made there is shown
 * once with a call to try it, listed by how it begins, and revoked after a confirmation.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setLocale } from '../../src/i18n';
import { startTestApp, type TestApp } from '../helpers/app';
import { signUpCustomer, type CustomerSession } from '../helpers/fixtures';
import { renderArea } from './area-harness';

let t: TestApp;
let customer: CustomerSession;

beforeAll(async () => {
  t = await startTestApp();
  customer = await signUpCustomer(t);
}, 60_000);
afterAll(() => t?.close());
// The screens in Chinese, whatever the test browser's language (the setup clears the choice after each test).
beforeEach(() => setLocale('zh'));

const long = { timeout: 30_000 };
const input = (name: string) => document.querySelector<HTMLInputElement>(`[name="${name}"]`)!;

describe('the API keys page on the real API', { timeout: 90_000 }, () => {
  it('When a customer makes a key, then it is shown once with a call to try it, listed by its beginning without it, and revoking it asks first', async () => {
    renderArea(t, 'admin', '/admin/api-keys', customer);
    await waitFor(() => expect(document.querySelector('.api-keys-empty')).toHaveTextContent('还没有 API 密钥。'), long);
    fireEvent.click(screen.getByRole('button', { name: '新建 API 密钥' }));
    await waitFor(() => expect(input('name')).not.toBeNull());
    fireEvent.change(input('name'), { target: { value: 'Backup script' } });
    // A key outlives this session: the password is asked for again (issue 33, 3.5).
    fireEvent.change(input('confirmation'), { target: { value: customer.password } });
    fireEvent.click(screen.getByRole('button', { name: '生成密钥' }));

    await waitFor(() => expect(document.querySelector('.api-key-value')?.textContent).toMatch(/^mdk_/), long);
    const key = document.querySelector('.api-key-value')!.textContent!;
    const shown = document.querySelector<HTMLElement>('.api-key-created')!;
    expect(shown).toHaveTextContent('密钥“Backup script”');
    expect(shown).toHaveTextContent('密钥只显示这一次');
    expect(shown.querySelector('.api-key-example')).toHaveTextContent(`Authorization: Bearer ${key}`);
    expect(shown.querySelector('.api-key-example')).toHaveTextContent('/api/admin/me/info');
    fireEvent.click(within(shown).getByRole('button', { name: '完成' }));
    await waitFor(() => expect(document.querySelector('.api-key-value')).toBeNull());

    await waitFor(() => expect(document.querySelector('.api-key-name')).toHaveTextContent('Backup script'), long);
    const row = document.querySelector<HTMLElement>('.api-key-row')!;
    expect(row).toHaveTextContent('只读');
    expect(row.querySelector('.api-key-last-used')).toHaveTextContent('尚未使用');
    expect(row).toHaveTextContent(`${key.slice(0, 8)}`);
    expect(document.querySelector('.api-keys-page')).not.toHaveTextContent(key);

    fireEvent.click(within(row).getByRole('button', { name: '撤销' }));
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveTextContent('撤销密钥“Backup script”？'));
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(document.querySelector('.api-keys-empty')).not.toBeNull(), long);
    expect((await t.get('/api/admin/api_key/list', {}, { token: customer.token })).data.total).toBe(0);
  });
});
