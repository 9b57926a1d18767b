import type { ComponentType } from 'react';
import {
  createBrowserRouter,
  type LoaderFunction,
  type LoaderFunctionArgs,
  type RouteObject,
  redirect,
} from 'react-router';
import { i18n } from '../shared/i18n';
import { toast } from '../shared/ui/toasts';
import {
  redirectSignedInController,
  redirectSignedInFromLogin,
  requireController,
  requireStaff,
} from './guards';
import { firstScreenPage, type PageLoader } from './lazyPage';
import { FullPageLoader } from './pages/FullPageLoader';
import { ChunkErrorScreen, RouteErrorScreen } from './pages/RouteErrorScreen';
import { APP_ROUTES } from './routes';
import type { AppRoute, AppRouteHandle } from './routeTypes';
import { AppRoot } from './shell/AppRoot';

/** The guard a route's `auth` (and `roles`) stand for, as a loader; public routes have none. */
export function guardFor(route: AppRoute): LoaderFunction | undefined {
  switch (route.auth) {
    case 'staff':
      return async ({ request }: LoaderFunctionArgs) => {
        await requireStaff(request, route.roles);
        return null;
      };
    case 'signedOut':
      return redirectSignedInFromLogin;
    case 'controller':
      return requireController;
    case 'controllerSignedOut':
      return redirectSignedInController;
    case 'public':
      return undefined;
  }
}

function loaderFor(route: AppRoute): LoaderFunction | undefined {
  const guard = guardFor(route);
  const { rule, redirectTo } = route;
  if (!guard && !rule && !redirectTo) return undefined;
  return async (args) => {
    if (guard) await guard(args);
    if (rule) await rule(args);
    if (redirectTo) throw redirect(redirectTo);
    return null;
  };
}

/** A page that cannot be loaded resolves to the retry screen: a failed `lazy` would leave the route blank. */
async function loadComponent(page: PageLoader): Promise<{ Component: ComponentType }> {
  try {
    return { Component: await page() };
  } catch (error) {
    console.error('A page could not be loaded', error);
    return { Component: ChunkErrorScreen };
  }
}

function toRouteObject(route: AppRoute): RouteObject {
  const page = route.page;
  const handle: AppRouteHandle = { appRoute: route };
  return {
    id: route.id,
    path: route.path,
    loader: loaderFor(route),
    lazy: page ? () => loadComponent(page) : undefined,
    // A redirect-only route never renders.
    element: page ? undefined : null,
    handle,
    errorElement: <RouteErrorScreen />,
  };
}

const loadShell = firstScreenPage(() => import('./shell/ConsoleShell'), 'ConsoleShell');

/** An unknown URL: a toast names it, then the root (01 §2 redirects silently; users thought their link worked). */
function redirectUnknownPath({ request }: LoaderFunctionArgs): Response {
  toast.warning(i18n.t('pages.notFound.message', { path: new URL(request.url).pathname }), {
    title: i18n.t('pages.notFound.title'),
  });
  return redirect('/');
}

export function buildRouteObjects(routes: readonly AppRoute[] = APP_ROUTES): RouteObject[] {
  return [
    {
      id: 'app',
      element: <AppRoot />,
      errorElement: <RouteErrorScreen />,
      hydrateFallbackElement: <FullPageLoader />,
      children: [
        ...routes.filter((route) => !route.inShell).map(toRouteObject),
        {
          id: 'shell',
          // The console's frame loads with the first signed-in page, not with the sign-in page.
          lazy: () => loadComponent(loadShell),
          children: routes.filter((route) => route.inShell).map(toRouteObject),
        },
        // Any unknown path goes to the root, which goes to /patients (01 §2), and the user is told why.
        { id: 'unknown', path: '*', loader: redirectUnknownPath, element: null },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRouteObjects());
}
