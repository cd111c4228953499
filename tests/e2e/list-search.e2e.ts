/**
 * Typing a name into a list's search and clicking the row at once opens the record, and the
 * record stays open: the search that react-admin applies 500 ms after the last keystroke must
 * not take the person back to the list. The page runs on a slowed CPU (as on a busy laptop), so
 * that the record's page is still being drawn when the delayed search comes due.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCustomer, customerSignIn, landedAt, launch, openPage, operatorSignIn } from './browser';

let browser: Browser;
let customer: Awaited<ReturnType<typeof apiCustomer>>;

beforeAll(async () => {
  browser = await launch();
  customer = await apiCustomer();
});
afterAll(async () => {
  await browser?.close();
});

const RUNS = Number(process.env.LIST_SEARCH_RUNS ?? 3);

/** Types into the list's search, clicks the row showing `rowText` just before the search comes due, and returns the address 1.5 s later. */
async function searchThenClick(page: Page, listPath: string, rowText: string, search: string) {
  await page.goto(listPath);
  const row = page.locator('tbody tr', { hasText: rowText }).first();
  await row.waitFor();
  const cell = (await row.locator('td').nth(1).boundingBox())!;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.locator('input[name=q]').pressSequentially(search, { delay: 20 });
  await page.waitForTimeout(350);
  await page.mouse.click(cell.x + cell.width / 2, cell.y + cell.height / 2);
  await page.waitForTimeout(1500);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  return new URL(page.url());
}

describe('a row clicked right after typing into the list search', () => {
  it.each(Array.from({ length: RUNS }, (_, i) => i + 1))('opens the customer’s activity entry and stays there (run %i)', async () => {
    const { page, errors } = await openPage(browser, 'en');
    await customerSignIn(page, customer.email, customer.password);
    await landedAt(page, /\/admin$/);
    // The top row: one lower down moves up when the search applies first and drops the rows above it
    // (the customer's own sign-ins do not name them), and a click at its old place then finds no row.
    const url = await searchThenClick(page, '/admin/log', '', customer.email.slice(0, 8));
    expect(url.pathname + url.search).toMatch(/^\/admin\/log\/view\?id=\d+$/);
    await page.locator('.view-log').waitFor();
    expect(errors).toEqual([]);
  });

  it.each(Array.from({ length: RUNS }, (_, i) => i + 1))('opens the operator’s customer form and stays there (run %i)', async () => {
    const { page, errors } = await openPage(browser, 'en');
    await operatorSignIn(page);
    const url = await searchThenClick(page, '/manage/user', customer.email, customer.email.slice(0, 8));
    expect(url.pathname + url.search).toBe(`/manage/user/update?id=${customer.id}`);
    await expect(page.locator('input[name=email]').inputValue()).resolves.toBe(customer.email);
    expect(errors).toEqual([]);
  });
});
