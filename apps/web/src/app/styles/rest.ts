let loading: Promise<unknown> | undefined;

/**
 * The Mantine styles no first screen needs (rest.css): requested once, right after the first screen is drawn and
 * by every other page before it shows, so no screen ever appears unstyled.
 */
export function loadRestStyles(): Promise<unknown> {
  // With them, the placement and dragging of dialogs (restLoaded.ts).
  loading ??= import('./restLoaded').catch((error: unknown) => {
    // Tried again by the next page; the page itself still opens.
    loading = undefined;
    console.error('Styles could not be loaded', error);
  });
  return loading;
}
