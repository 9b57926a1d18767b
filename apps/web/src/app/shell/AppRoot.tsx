import { Outlet } from 'react-router';

/** The root of every route: pages outside the console render straight here. */
export function AppRoot() {
  return <Outlet />;
}
