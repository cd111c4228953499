/**
 * The operators' side menu in its groups (customer accounts, mail, shop, support, system): a
 * group opens and closes at its title, the group of the page shown is open, and every feature
 * with a list or page of its own is an entry of one group.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaContents, isGroup } from '../../src/area/features';
import { operatorFeatures } from '../../src/operator/features';
import { startTestApp, type TestApp } from '../helpers/app';
import { renderArea, signedInOperator } from './area-harness';

let t: TestApp;
let operator: { id: number; token: string; username: string };

beforeAll(async () => {
  t = await startTestApp();
  operator = await signedInOperator(t);
}, 60_000);

afterAll(() => t?.close());

const title = (name: string) => screen.getByRole('menuitem', { name });
const entry = (name: string) => screen.queryByRole('menuitem', { name });

describe('operator menu', { timeout: 60_000 }, () => {
  it('When the operator area is built, then its menu is five groups holding every screen with a list and every page', () => {
    const { menu, screens, pages } = areaContents('manage', operatorFeatures);
    expect(menu.map((m) => (isGroup(m) ? m.group : 'ungrouped'))).toEqual(['customers', 'mail', 'shop', 'support', 'system']);
    const inMenu = menu.flatMap((m) => (isGroup(m) ? m.entries : [m]));
    expect(inMenu).toEqual(expect.arrayContaining([...screens.filter((s) => s.config.list), ...pages]));
  });

  it('When an operator opens the domains list, then the mail group is open, the shop group closed until its title is clicked', async () => {
    renderArea(t, 'manage', '/manage/domain', operator);
    await waitFor(() => expect(title('邮件服务')).toHaveAttribute('aria-expanded', 'true'), { timeout: 30_000 });
    // The group opens as the page is known; its entries come as the area's screens register (a moment later on a busy machine).
    await waitFor(() => expect(entry('域名')).toBeInTheDocument(), { timeout: 10_000 });
    expect(entry('已删除的邮箱')).toBeInTheDocument();
    expect(title('商城')).toHaveAttribute('aria-expanded', 'false');
    expect(entry('订单')).toBeNull();

    await act(async () => fireEvent.click(title('商城')));
    await waitFor(() => expect(entry('订单')).toBeInTheDocument(), { timeout: 10_000 });
    expect(entry('商品')).toBeInTheDocument();

    // Closing a group hides its entries, also the group of the page shown.
    await act(async () => fireEvent.click(title('邮件服务')));
    // The group folds away with a transition before its entries leave the page: on a busy machine, seconds.
    await waitFor(() => expect(entry('已删除的邮箱')).toBeNull(), { timeout: 10_000 });
    expect(title('邮件服务')).toHaveAttribute('aria-expanded', 'false');
  });
});
