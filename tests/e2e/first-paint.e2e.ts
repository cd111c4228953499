/**
 * The home page's first paint, measured in the browser (Paint Timing and Resource Timing) and
 * written to bench/results/web-first-paint.json. The figure is reported, not asserted (speed
 * is judged by the bench); the test checks that the page paints its content from the first
 * download alone, with the sign-in pages and the contact form's fields loaded later, and MUI
 * (which comes with the areas and the dialogs) not at all.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launch, openPage } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

it('When / is opened, then it paints its heading, and the paint timing is recorded', async () => {
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const { page, errors } = await openPage(browser);
    await page.goto('/', { waitUntil: 'load' });
    await page.locator('h1, h2, h3').first().waitFor();
    // Paint entries come after the frame that painted them.
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    const figures = await page.evaluate(() => {
      const paint = (name: string) => performance.getEntriesByName(name)[0]?.startTime;
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js'));
      return {
        first_paint_ms: paint('first-paint'),
        first_contentful_paint_ms: paint('first-contentful-paint'),
        dom_content_loaded_ms: navigation.domContentLoadedEventEnd,
        load_ms: navigation.loadEventEnd,
        scripts: scripts.map((s) => ({ file: new URL(s.name).pathname, transfer_bytes: s.transferSize, body_bytes: s.decodedBodySize })),
      };
    });
    expect(figures.first_contentful_paint_ms).toBeGreaterThan(0);
    // The sign-in pages are not part of the first download, nor MUI, react-admin or the dialogs (vite.config.ts names their chunks).
    expect(figures.scripts.some((s) => /LoginPage|RegisterPage/.test(s.file))).toBe(false);
    expect(figures.scripts.filter((s) => /mui-shared|areas-shared|DialogHost/.test(s.file))).toEqual([]);
    expect(errors).toEqual([]);
    runs.push(figures);
    await page.context().close();
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const result = {
    measured_at: new Date().toISOString(),
    note: 'Chromium (headless) against npm start on this machine, fresh context each run (no cache); median of 3; shared 2-core machine',
    first_contentful_paint_ms: +median(runs.map((r) => r.first_contentful_paint_ms!)).toFixed(1),
    first_paint_ms: +median(runs.map((r) => r.first_paint_ms ?? 0)).toFixed(1),
    dom_content_loaded_ms: +median(runs.map((r) => r.dom_content_loaded_ms)).toFixed(1),
    runs,
  };
  fs.mkdirSync('bench/results', { recursive: true });
  fs.writeFileSync(path.resolve('bench/results/web-first-paint.json'), `${JSON.stringify(result, null, 2)}\n`);
});
