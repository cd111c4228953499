// Roboto ships with the app (latin, the theme's weights): where it is not installed (Linux), the
// next font in the list, a CJK one, would draw Latin letters and quotes full-width.
import '@fontsource/roboto/latin-400.css';
import '@fontsource/roboto/latin-500.css';
import '@fontsource/roboto/latin-700.css';
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
// A followed link shows the new page (or, while its code downloads, the progress bar) at once:
// react-router 7 would otherwise render every navigation as a transition, and keep the page left
// on screen, with no sign of the change, until the new one is ready (RouteProgress never saw it).
void loadTexts().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BrowserRouter useTransitions={false}>
        <App />
      </BrowserRouter>
    </StrictMode>,
  ),
);
