import { notifications } from '@mantine/notifications';
import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, vi } from 'vitest';
import { controllerSession } from '../app/auth/controllerSession';
import { session } from '../app/auth/session';
import { AppProviders } from '../app/providers';
import { queryClient } from '../app/queryClient';
import { buildRouteObjects } from '../app/router';
import type { AppRoute } from '../app/routeTypes';
import { patientSearch } from '../features/patients/searchStore';
import { scopeStore } from '../features/tenancy/scope';
import { browserNavigation } from '../shared/browser';
import { i18n } from '../shared/i18n';
import { loadingOverlay } from '../shared/ui/loadingOverlay';
import { settleDeferred } from '../shared/ui/loadOnce';
import { themePreference } from '../shared/ui/themePreference';
import { discardWaitingToasts } from '../shared/ui/toasts';

/** Starts every test from a fresh page load: no session, no cache, English, light theme. */
export function resetApp(): void {
  session.reset();
  controllerSession.end();
  queryClient.clear();
  scopeStore.set(null);
  patientSearch.set('');
  loadingOverlay.set(false);
  themePreference.set('light');
  notifications.clean();
  discardWaitingToasts();
  void i18n.changeLanguage('en');
}

afterEach(() => {
  resetApp();
  vi.unstubAllGlobals();
});

/** The full-page navigations of sign-out, recorded instead of performed. */
export function spyOnBrowserNavigation() {
  return {
    reloadAt: vi.spyOn(browserNavigation, 'reloadAt').mockImplementation(() => {}),
    reload: vi.spyOn(browserNavigation, 'reload').mockImplementation(() => {}),
  };
}

export function renderWithProviders(ui: ReactNode) {
  return render(
    <AppProviders queryClient={queryClient} env="test">
      {ui}
    </AppProviders>,
  );
}

/** Renders the app's route table (or a given one) at `path`, as the browser would. */
export function renderRoutes(path: string, routes?: readonly AppRoute[]) {
  const router = createMemoryRouter(buildRouteObjects(routes), { initialEntries: [path] });
  const view = renderWithProviders(<RouterProvider router={router} />);
  return { ...view, router };
}

/** A signed-in staff session as after a successful page-load refresh. */
export function signInForTest(token = 'test-access-token'): void {
  session.start(token, 'signedIn');
}

/**
 * Waits for the code of the controls drawn so far that load after the first render (menus, the bell's list,
 * selects: deferredControl) and for their swap, so that a test then acts on the real control, not on its
 * look-alike placeholder.
 */
export async function controlsLoaded(): Promise<void> {
  await act(() => settleDeferred());
}
