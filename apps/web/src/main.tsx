import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { session } from './app/auth/session';
import { AppProviders } from './app/providers';
import { queryClient } from './app/queryClient';
import { reloadLive, reloadUserAfterRoleChange, startRealtime } from './app/realtime';
import { createAppRouter } from './app/router';
import { loadRestStyles } from './app/styles/rest';
import { i18nReady } from './shared/i18n';

const router = createAppRouter();

// The live connection follows the session: opened once signed in, closed at sign-out (01 §4).
startRealtime({
  onRolesUpdated: () => void reloadUserAfterRoleChange(queryClient, router),
  onReconnected: () => void reloadLive(queryClient),
});
void session.ready();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

// The first screen is drawn in the remembered language (its texts load while the page's code does).
void i18nReady.then(() => {
  createRoot(container).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
  // Then the styles the first screen did not need, before the user opens another page.
  setTimeout(() => void loadRestStyles(), 0);
});
