// Prints the console's staff screens as JSON, read from its route table (apps/web/src/app/routes.ts and every
// feature's routes.ts): `node --import tsx e2e/tests/route-table.ts`. every-screen.spec.ts opens each one.
// The table's modules read the browser's storage when loaded: Node gets an empty one for the import.
// Run through tsx (as the server is), whose resolution of the console's imports matches the bundler's.
const empty = () => {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
};
const g = globalThis as { sessionStorage?: unknown; localStorage?: unknown };
g.sessionStorage ??= empty();
g.localStorage ??= empty();
// A specifier in a variable: the console's pages are type-checked by its own project, not by this one's.
const table = '../../apps/web/src/app/routes';
const { APP_ROUTES } = (await import(table)) as {
  APP_ROUTES: { path: string; auth: string; redirectTo?: string }[];
};
// Redirect-only routes draw nothing.
const screens = APP_ROUTES.filter((route) => route.auth === 'staff' && !route.redirectTo).map((r) => r.path);
process.stdout.write(JSON.stringify(screens));

export {};
