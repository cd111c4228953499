/**
 * Browser tests (npm run test:e2e): the built app started as `npm start` starts it, on a free
 * port with a fresh data directory, driven by Debian's Chromium through playwright-core.
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
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 60_000,
  },
});
