import { type ComponentType, lazy } from 'react';

type PartLoader<P> = () => Promise<ComponentType<P>>;

/**
 * A part that draws nothing until used (live notices, the Ctrl+K search): it loads after the first screen, and
 * a part that cannot be loaded is left out rather than taking the console down with it.
 */
export function deferredPart<P extends object>(load: PartLoader<P>) {
  const nothing: ComponentType<P> = () => null;
  return lazy(() =>
    load().then(
      (Component) => ({ default: Component }),
      (error: unknown) => {
        console.error('A part of the console could not be loaded', error);
        return { default: nothing };
      },
    ),
  );
}
