/** The built app works under the strict Content-Security-Policy, and the guard notices when something is blocked. */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspViolations, launch, openPage, operatorSignIn } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(() => browser.close());

describe('content security policy', () => {
  it('serves every page with a policy that allows only our own scripts', async () => {
    const { page, errors } = await openPage(browser, 'en');
    const response = await page.goto('/login-manage');
    const policy = response!.headers()['content-security-policy'];
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    await operatorSignIn(page);
    await page.goto('/manage/admin');
    await page.getByRole('table').waitFor();
    expect(errors).toEqual([]);
  });

  it('reports an injected inline script as a violation (so the guard would fail the test)', async () => {
    const { page } = await openPage(browser, 'en');
    await page.goto('/login');
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.appendChild(script);
    });
    await expect.poll(() => cspViolations.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
    // Seen, and taken away so that the guard does not fail this test: the other tests must have none.
    expect(cspViolations.splice(0).join('\n')).toMatch(/script-src/);
  });
});
