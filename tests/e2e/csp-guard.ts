/** Fails any browser test during which a page reported a Content-Security-Policy violation. */
import { afterEach, expect } from 'vitest';
import { cspViolations } from './browser';

afterEach(() => {
  const seen = cspViolations.splice(0);
  expect(seen.join('\n'), 'CSP violations').toBe('');
});
