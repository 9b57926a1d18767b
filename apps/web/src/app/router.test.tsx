import { authContract, patientsContract, platformContract, userContract } from '@caredeck/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../shared/i18n';
import { mockFetch, on } from '../test/fetchMock';
import { CONFIG, makeUser, pageOf } from '../test/fixtures';
import { renderRoutes, signInForTest } from '../test/render';
import { lazyPage } from './lazyPage';
import { guardFor } from './router';
import { APP_ROUTES } from './routes';
import type { AppRoute } from './routeTypes';

const PROTECTED = new Set(['staff', 'controller']);

function PhysicianPage() {
  return <p>physician page</p>;
}

/** A role-guarded page, as later issues will add them. */
const guarded: AppRoute = {
  id: 'physicianOnly',
  path: '/physician-only',
  auth: 'staff',
  roles: ['physician'],
  page: lazyPage(async () => ({ PhysicianPage }), 'PhysicianPage'),
};

function locationOf(router: ReturnType<typeof renderRoutes>['router']): string {
  return `${router.state.location.pathname}${router.state.location.search}`;
}

/** A concrete URL for a route path (parameters filled in). */
function examplePath(route: AppRoute): string {
  return route.path.replace(/:(\w+)/g, '1');
}

function signedOutServer() {
  return mockFetch({ [on(authContract.refresh)]: { status: 401, body: { message: 'Unauthenticated.' } } });
}

function signedInServer(user = makeUser()) {
  return mockFetch({
    [on(userContract.me)]: { body: user },
    [on(platformContract.config)]: { body: CONFIG },
    [on(patientsContract.list, { programId: 1 })]: { body: pageOf([]) },
    [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
  });
}

describe('the route table', () => {
  it('declares a guard for every protected route, and every console page is a staff page', () => {
    for (const route of APP_ROUTES) {
      expect(['public', 'signedOut', 'staff', 'controller', 'controllerSignedOut']).toContain(route.auth);
      if (PROTECTED.has(route.auth)) expect(guardFor(route), route.id).toBeTypeOf('function');
      if (route.inShell) expect(route.auth, route.id).toBe('staff');
      if (route.roles) expect(route.auth, route.id).toBe('staff');
    }
    expect(new Set(APP_ROUTES.map((route) => route.path)).size).toBe(APP_ROUTES.length);
  });

  it.each(APP_ROUTES.filter((route) => route.auth === 'staff').map((route) => [route.path, route] as const))(
    'sends a signed-out visitor of %s to /login with the wanted path',
    async (_path, route) => {
      signedOutServer();
      const wanted = `${examplePath(route)}?page=2`;
      const { router } = renderRoutes(wanted);
      await waitFor(() => expect(locationOf(router)).toBe(`/login?to=${encodeURIComponent(wanted)}`));
      expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    },
  );

  it('opens a page on load with one refresh that brings the user along: no separate GET /user', async () => {
    const user = makeUser();
    const server = mockFetch({
      [on(authContract.refresh)]: { body: { access_token: 'fresh', expires_in: 900, user } },
      [on(platformContract.config)]: { body: CONFIG },
      [on(patientsContract.list, { programId: 1 })]: { body: pageOf([]) },
      [on(userContract.pageSession, { programId: 1, id: 7 })]: { status: 201, body: {} },
    });
    const { router } = renderRoutes('/patients');
    expect(await screen.findByRole('heading', { name: 'Patients' })).toBeInTheDocument();
    expect(locationOf(router)).toBe('/patients');
    const refresh = server.callsTo(on(authContract.refresh));
    expect(refresh).toHaveLength(1);
    expect(new URL(refresh[0]!.url).searchParams.get('include')).toBe('user');
    expect(server.callsTo(on(userContract.me))).toHaveLength(0);
  });

  it.each(
    APP_ROUTES.filter((route) => route.auth === 'controller').map((route) => [route.path, route] as const),
  )(
    'sends a visitor of %s without a controller session to the controller sign-in, even with a staff session',
    async (_path, route) => {
      signedInServer();
      signInForTest();
      const { router } = renderRoutes(examplePath(route));
      await waitFor(() =>
        expect(locationOf(router)).toBe(`/controller/login?to=${encodeURIComponent(examplePath(route))}`),
      );
    },
  );

  it('redirects the root to /patients, hence to /login?to=%2Fpatients when signed out', async () => {
    signedOutServer();
    const { router } = renderRoutes('/');
    await waitFor(() => expect(locationOf(router)).toBe('/login?to=%2Fpatients'));
  });

  it('sends an unknown path to the root, which lands on /patients', async () => {
    signedInServer();
    signInForTest();
    const { router } = renderRoutes('/no/such/page');
    await waitFor(() => expect(locationOf(router)).toBe('/patients'));
    expect(await screen.findByRole('heading', { name: 'Patients' })).toBeInTheDocument();
  });

  it('tells the user with a toast that the unknown path did not exist (the redirect stays)', async () => {
    signedInServer();
    signInForTest();
    const { router } = renderRoutes('/no/such/page');
    await waitFor(() => expect(locationOf(router)).toBe('/patients'));
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
    expect(
      screen.getByText('There is no page at /no/such/page. You have been taken to the start page.'),
    ).toBeInTheDocument();
  });

  it('gives every screen of the route table a title of its own', () => {
    const titled = APP_ROUTES.filter((route) => route.page);
    for (const route of titled) expect(route.titleKey, route.id).toBeDefined();
    const inShell = APP_ROUTES.filter((route) => route.inShell).map((route) => route.titleKey);
    expect(new Set(inShell).size).toBe(inShell.length);
  });

  it('titles the browser tab after the screen, in the user’s language', async () => {
    signedInServer();
    signInForTest();
    const { router } = renderRoutes('/patients');
    await waitFor(() => expect(document.title).toBe('Patients · CareDeck'));
    await act(() => router.navigate('/settings'));
    await waitFor(() => expect(document.title).toBe('Settings · CareDeck'));
    await act(() => i18n.changeLanguage('de'));
    await waitFor(() => expect(document.title).toBe('Einstellungen · CareDeck'));
    await act(() => router.navigate('/terms'));
    await waitFor(() => expect(document.title).toBe('Nutzungsbedingungen · CareDeck'));
  });

  it('sends a user without the route role to /error/not-authorized, and lets a holder in', async () => {
    const routes = [...APP_ROUTES, guarded];
    signedInServer(makeUser({ roles: [{ name: 'care_coordinator', program_id: 1, enterprise_id: 1 }] }));
    signInForTest();
    const denied = renderRoutes('/physician-only', routes);
    await waitFor(() => expect(locationOf(denied.router)).toBe('/error/not-authorized'));
    expect(await screen.findByRole('heading', { name: 'Not authorized' })).toBeInTheDocument();
    denied.unmount();

    signedInServer(makeUser({ roles: [{ name: 'physician', program_id: 1, enterprise_id: 1 }] }));
    const { queryClient } = await import('./queryClient');
    queryClient.clear();
    const allowed = renderRoutes('/physician-only', routes);
    expect(await screen.findByText('physician page')).toBeInTheDocument();
    expect(locationOf(allowed.router)).toBe('/physician-only');
  });

  it('counts enterprise_admin of the program’s enterprise as holding the role', async () => {
    signedInServer(makeUser({ roles: [{ name: 'enterprise_admin', program_id: null, enterprise_id: 1 }] }));
    signInForTest();
    renderRoutes('/physician-only', [...APP_ROUTES, guarded]);
    expect(await screen.findByText('physician page')).toBeInTheDocument();
  });

  it('sends /guest/messenger without sender, receiver and conversation to not-authorized', async () => {
    mockFetch({});
    const missing = renderRoutes('/guest/messenger?sender=1&receiver=2');
    await waitFor(() => expect(locationOf(missing.router)).toBe('/error/not-authorized'));
    missing.unmount();
    // With its ids the guest messenger opens (it asks for the invitation link when no guest token is kept).
    const complete = renderRoutes('/guest/messenger?sender=1&receiver=2&conversation=3');
    expect(await screen.findByText('Open the link from your invitation again.')).toBeInTheDocument();
    expect(locationOf(complete.router)).toContain('/guest/messenger');
  });

  it('serves the public pages without a session', async () => {
    const server = mockFetch({});
    renderRoutes('/terms');
    expect(await screen.findByRole('heading', { name: 'Terms of use' })).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
  });
});
