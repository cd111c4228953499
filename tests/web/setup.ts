import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadTexts } from '../../src/i18n';

// As the app does before its first render: the current language's texts.
await loadTexts();

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});
