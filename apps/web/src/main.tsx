import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { session } from './app/auth/session';
import { AppProviders } from './app/providers';
import { queryClient } from './app/queryClient';
import { reloadUserAfterRoleChange, startRealtime } from './app/realtime';
import { createAppRouter } from './app/router';

const router = createAppRouter();

// The live connection follows the session: opened once signed in, closed at sign-out (01 §4).
startRealtime({ onRolesUpdated: () => void reloadUserAfterRoleChange(queryClient, router) });
void session.ready();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
