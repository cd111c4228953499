/**
 * What a file changes in shared module state (the clock, mocks) ends with the file, also when files
 * share their worker's modules (vite.config.ts says whether they do).
 */
import { afterAll, vi } from 'vitest';
import { setClock } from '../../server/core/time.js';

afterAll(() => {
  setClock();
  vi.restoreAllMocks();
});
