import './chinese-browser';
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadTexts, setLocale } from '../../src/i18n';

// As the app does before its first render: the current language's texts.
await loadTexts();

// Files share their worker's modules (vite.config.ts): a test that chose English leaves the
// app in Chinese again, as this browser (chinese-browser.ts) opens it, for the next file.
afterEach(async () => {
  cleanup();
  await setLocale('zh');
  window.localStorage.clear();
});
