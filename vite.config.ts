import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompressPlugin } from './vite-plugins/precompress';

export default defineConfig({
  // Brotli and gzip copies of the built files, which the server sends by Accept-Encoding (server/core/web-app.ts).
  plugins: [react(), precompressPlugin()],
  // Builds only (tests run the packages as they are).
  ...(process.env.VITEST
    ? {}
    : {
        resolve: {
          alias: [
            // react-router's package points every bundler at its development build; the web app ships its production one.
            { find: /^react-router$/, replacement: path.resolve('node_modules/react-router/dist/production/index.mjs') },
            // ra-core's react-router adapter without the router it never needs here (src/area/reactRouterProvider.ts).
            { find: /^\.\/adapters\/reactRouterProvider\.js$/, replacement: path.resolve('src/area/reactRouterProvider.ts') },
            // node-polyglot (translations) polyfills Object.entries with ~15 kB of helpers every browser we serve has built in.
            { find: /^object\.entries$/, replacement: path.resolve('src/shims/object-entries.cjs') },
          ],
        },
      }),
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // Which chunks each page needs (bench/web-bundle.ts).
    manifest: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        // The code both areas share (react-admin), and MUI's core (with emotion) that the dialogs
        // share with them, get names that say so, not that of one of their modules.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => id.includes('/node_modules/ra-core/'))
            ? 'assets/areas-shared-[hash].js'
            : chunk.moduleIds.some((id) => id.includes('/node_modules/@emotion/react/'))
              ? 'assets/mui-shared-[hash].js'
              : 'assets/[name]-[hash].js',
      },
    },
  },
  test: {
    globals: true,
    // One test file per core (vitest's default leaves one core to itself: on 2 cores, one file at a time).
    maxWorkers: '100%',
    projects: [
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          // Modules imported once per worker, as the web project: half the suite's time. What a file changes in
          // shared state ends with it (tests/helpers/api-setup.ts); the operator's sign-in (ROOT) is frozen.
          isolate: false,
          setupFiles: ['tests/helpers/api-setup.ts'],
          // Every file starts its own app on its own database; argon2 hashing is CPU-bound.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Suites that need running services (npm run test:services); not part of npm test.
        extends: true,
        // Its process tests run the compiled server, compiled once (tests/services/build-server.ts): a file compiling
        // it again beside another file's running server would rewrite modules under it.
        test: { name: 'services', include: ['tests/services/**/*.test.ts'], globalSetup: ['tests/services/build-server.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 60_000 },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // As the API suite: modules imported once per worker (each test ends with cleanup(): tests/web/setup.ts).
          isolate: false,
          setupFiles: ['tests/web/setup.ts'],
          testTimeout: 15_000,
        },
      },
    ],
  },
});
