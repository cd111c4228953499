import { defineConfig } from 'vitest/config';

export default defineConfig({
  build: { outDir: 'dist/web', emptyOutDir: true },
  test: {
    globals: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          // Every file starts its own app on its own database; argon2 hashing is CPU-bound.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Suites that need a service beside Node (npm run test:redis); not part of npm test.
        extends: true,
        test: { name: 'services', include: ['tests/services/**/*.test.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 60_000 },
      },
    ],
  },
});
