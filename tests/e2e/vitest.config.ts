/**
 * Browser tests (npm run test:e2e): the built app started as `npm start` starts it, on a free
 * port with a fresh data directory, driven by Debian's Chromium through playwright-core. Three
 * files at a time, each worker on an app of its own (server.ts). Chromium drawing the app is most
 * of its cost: alone, the suite keeps both cores busy (2,493 CPU-seconds in 1,266 s here), so CI
 * runs it last, with the machine to itself (.ci/run).
 * Kept apart from `npm test` (its projects include tests/api and tests/web only).
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['tests/e2e/server.ts'],
    setupFiles: ['tests/e2e/csp-guard.ts'],
    maxWorkers: 3,
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // A page's content comes when the app has fetched it: on a loaded machine, seconds (vitest's 1 s
    // default read a list before it had loaded: 'expected 0 to be 2' in CI).
    expect: { poll: { timeout: 15_000 } },
  },
});
