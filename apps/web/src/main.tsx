// First: zod is told not to compile with eval before any module builds a schema (ADR 0542).
import '@quire/contracts/jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { preloadMessages } from './i18n/I18nProvider';
import { routes } from './routes';
import './styles.css';

void preloadMessages(window.location.pathname)
  // Texts that fail to load leave the page in English, as switching language does.
  .catch(() => undefined)
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <RouterProvider router={createBrowserRouter(routes)} />
      </StrictMode>,
    ),
  );
