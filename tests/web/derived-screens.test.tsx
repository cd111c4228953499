/**
 * The derived update and view pages of both areas, rendered from the declarations and
 * talking to the real server: a cleared optional field is saved empty and stays empty after
 * a reload; a required field emptied is refused beside the field (no alert, no request);
 * missing, unknown and foreign ids show "not found" with the way back to the list.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { signUpCustomer, type CustomerSession } from '../helpers/fixtures';
import { renderArea, signedInOperator } from './area-harness';

let t: TestApp;
let a: CustomerSession;
let b: CustomerSession;
let operator: { id: number; token: string; username: string };
let domainOfA: number;
let domainOfB: number;

const input = (name: string) => document.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`)!;
const save = () => fireEvent.click(screen.getByRole('button', { name: /保存|Save/ }));

beforeAll(async () => {
  t = await startTestApp();
  a = await signUpCustomer(t);
  b = await signUpCustomer(t);
  domainOfA = (await t.post('/api/admin/domain/create', { name: `a-${a.id}.example`, note: 'Shop mail' }, { token: a.token })).data.id;
  domainOfB = (await t.post('/api/admin/domain/create', { name: `b-${b.id}.example`, note: 'B note' }, { token: b.token })).data.id;
  operator = await signedInOperator(t);
}, 60_000);

afterAll(() => t?.close());

describe('derived update pages', { timeout: 90_000 }, () => {
  it('When a customer clears the note of a domain and saves, then the server stores it empty and the reloaded form shows it empty', async () => {
    const page = renderArea(t, 'admin', `/admin/domain/update?id=${domainOfA}`, a);
    await waitFor(() => expect(input('note')).toHaveValue('Shop mail'), { timeout: 30_000 });
    fireEvent.change(input('note'), { target: { value: '' } });
    await act(async () => save());
    await waitFor(async () => expect((await t.get('/api/admin/domain/get', { id: domainOfA }, { token: a.token })).data.note).toBe(''), { timeout: 30_000 });
    expect(document.querySelector('.alert-warning')).toBeNull();
    page.unmount();

    renderArea(t, 'admin', `/admin/domain/update?id=${domainOfA}`, a);
    await waitFor(() => expect(input('note')).toBeInTheDocument(), { timeout: 30_000 });
    expect(input('note')).toHaveValue('');
  });

  it('When an operator empties the required subject of an e-mail template, then the field says 必填 and nothing is sent or changed', async () => {
    const template = (await t.get('/api/manage/email_template/list', { page: 1, page_size: 1 }, { token: operator.token })).data.list[0];
    renderArea(t, 'manage', `/manage/email_template/update?id=${template.id}`, operator);
    await waitFor(() => expect(input('subject')).toHaveValue(template.subject), { timeout: 30_000 });
    fireEvent.change(input('subject'), { target: { value: '' } });
    await act(async () => save());
    await waitFor(() => expect(screen.getByText('必填')).toBeInTheDocument(), { timeout: 30_000 });
    // Inline only: no WARNING alert and no snackbar on top of it.
    expect(document.querySelector('.alert-warning')).toBeNull();
    expect(document.querySelector('.MuiSnackbar-root')).toBeNull();
    expect((await t.get('/api/manage/email_template/get', { id: template.id }, { token: operator.token })).data.subject).toBe(template.subject);
  });

  it('When the server refuses a field, then the error shows beside it, translated, without a WARNING alert', async () => {
    renderArea(t, 'admin', `/admin/domain/update?id=${domainOfA}`, a);
    await waitFor(() => expect(input('note')).toBeInTheDocument(), { timeout: 30_000 });
    fireEvent.change(input('note'), { target: { value: 'x'.repeat(501) } });
    await act(async () => save());
    await waitFor(() => expect(screen.getByText(/500/)).toBeInTheDocument(), { timeout: 30_000 });
    expect(document.querySelector('.alert-warning')).toBeNull();
  });
});

describe('record pages without, with an unknown or with a foreign id', { timeout: 90_000 }, () => {
  const cases: [string, 'admin' | 'manage', () => string][] = [
    ['update without ?id= (customer)', 'admin', () => '/admin/domain/update'],
    ['update of another customer’s domain', 'admin', () => `/admin/domain/update?id=${domainOfB}`],
    ['update of an id that does not exist', 'admin', () => '/admin/domain/update?id=999999'],
    ['log view without ?id= (customer)', 'admin', () => '/admin/log/view'],
    ['log view without ?id= (operator)', 'manage', () => '/manage/log/view'],
    ['log view of an unknown id (operator)', 'manage', () => '/manage/log/view?id=999999'],
    ['update of a malformed id (operator)', 'manage', () => '/manage/domain/update?id=abc'],
  ];
  for (const [name, area, path] of cases) {
    it(`When opening the ${name}, then the page says not found and links back to the list`, async () => {
      renderArea(t, area, path(), area === 'admin' ? a : operator);
      await waitFor(() => expect(document.querySelector('.record-not-found')).not.toBeNull(), { timeout: 30_000 });
      expect(screen.getAllByText('记录不存在').length).toBeGreaterThan(0);
      const back = document.querySelector<HTMLAnchorElement>('.record-not-found a.back-to-list')!;
      expect(back.getAttribute('href')).toBe(path().replace(/\/(update|view).*$/, ''));
      // Neither a create form nor the WARNING alert.
      expect(document.querySelector('form')).toBeNull();
      expect(document.querySelector('.alert-warning')).toBeNull();
    });
  }
  it('When a customer opens their own domain, then the form shows it (the gate lets real records through)', async () => {
    renderArea(t, 'admin', `/admin/domain/update?id=${domainOfA}`, a);
    await waitFor(() => expect(input('note')).toBeInTheDocument(), { timeout: 30_000 });
    expect(document.querySelector('.record-not-found')).toBeNull();
  });
});
