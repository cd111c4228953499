import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { currentLocale, loadTexts } from './i18n';

// zod compiles object parsers with `new Function` unless told otherwise, and our CSP allows no
// eval. The flag must be set before any schema is made (the areas' declarations), so here, first.
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };

document.documentElement.lang = currentLocale();

// The first render shows the page in the visitor's language: its texts come first.
void loadTexts().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>,
  ),
);
