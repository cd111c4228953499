/**
 * The home page's first paint, measured in the browser (Paint Timing and Resource Timing) and
 * written to bench/results/web-first-paint.json. The figure is reported, not asserted (speed
 * is judged by the bench); the test checks that the page paints its content from the first
 * download alone, with the sign-in pages and the contact form's fields loaded later, and MUI
 * (which comes with the areas and the dialogs) not at all; that the page, its scripts and its
 * stylesheet arrive brotli-compressed (the bytes Chromium transfers are recorded beside the paint
 * timing; bench/web-first-visit.ts measures the same files over HTTP), and that a return visit
 * asks again for the page alone.
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
    const encodings: Record<string, string> = {};
    page.on('response', (r) => {
      const file = new URL(r.url()).pathname;
      if (file === '/' || file.startsWith('/assets/')) encodings[file] = r.headers()['content-encoding'] ?? 'none';
    });
    await page.goto('/', { waitUntil: 'load' });
    await page.locator('h1, h2, h3').first().waitFor();
    // Paint entries come after the frame that painted them.
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    const figures = await page.evaluate(() => {
      const paint = (name: string) => performance.getEntriesByName(name)[0]?.startTime;
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const scripts = resources.filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js'));
      const files = resources.filter((r) => new URL(r.name).pathname.startsWith('/assets/'));
      return {
        // Headers and bodies as received, of the page and every file of the app it loaded.
        transfer_bytes: navigation.transferSize + files.reduce((n, r) => n + r.transferSize, 0),
        files: files.length + 1,
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
    // Chromium asks for br, gzip, deflate and zstd: the page, its scripts and its stylesheet come as brotli.
    expect(encodings['/']).toBe('br');
    expect(Object.entries(encodings).filter(([file, encoding]) => /\.(js|css)$/.test(file) && encoding !== 'br')).toEqual([]);
    expect(Object.keys(encodings).filter((f) => f.endsWith('.css')).length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    runs.push({ ...figures, encodings });
    await page.context().close();
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const result = {
    measured_at: new Date().toISOString(),
    note: 'Chromium (headless) against npm start on this machine, fresh context each run (no cache); median of 3; shared 2-core machine',
    first_contentful_paint_ms: +median(runs.map((r) => r.first_contentful_paint_ms!)).toFixed(1),
    first_paint_ms: +median(runs.map((r) => r.first_paint_ms ?? 0)).toFixed(1),
    dom_content_loaded_ms: +median(runs.map((r) => r.dom_content_loaded_ms)).toFixed(1),
    first_visit_transfer_bytes: median(runs.map((r) => r.transfer_bytes)),
    runs,
  };
  fs.mkdirSync('bench/results', { recursive: true });
  fs.writeFileSync(path.resolve('bench/results/web-first-paint.json'), `${JSON.stringify(result, null, 2)}\n`);
});

it('When / is opened again in the same browser, then only the page is asked again, and its files come from the cache', async () => {
  const { page, errors } = await openPage(browser);
  await page.goto('/', { waitUntil: 'load' });
  await page.locator('h1, h2, h3').first().waitFor();
  // Every file of the first visit fetched, the ones the page asks for after its load event too (its
  // lazy parts): on a busy machine the second visit began before them, and fetched them the first time.
  await page.waitForLoadState('networkidle');
  const asked: { file: string; status: number }[] = [];
  page.on('response', (r) => {
    if (!r.fromServiceWorker() && !r.request().url().includes('/api/')) asked.push({ file: new URL(r.url()).pathname, status: r.status() });
  });
  await page.goto('/', { waitUntil: 'load' });
  await page.locator('h1, h2, h3').first().waitFor();
  // Files from the cache transfer nothing; the page is revalidated (304, or its 200 when it changed).
  const transferred = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => new URL(r.name).pathname.startsWith('/assets/') && r.transferSize > 0).map((r) => r.name),
  );
  expect(transferred).toEqual([]);
  expect(asked.find((a) => a.file === '/')).toBeTruthy();
  expect(errors).toEqual([]);
  await page.context().close();
});
