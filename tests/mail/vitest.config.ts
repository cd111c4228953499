/** `npm run test:mail`: the real mail-server suite (root, Debian's postfix and dovecot; deploy/install-mail-packages.sh). */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/mail/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
