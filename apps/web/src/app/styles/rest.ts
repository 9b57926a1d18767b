let loading: Promise<unknown> | undefined;

/**
 * The Mantine styles no first screen needs (rest.css): requested once, right after the first screen is drawn and
 * by every other page before it shows, so no screen ever appears unstyled.
 */
export function loadRestStyles(): Promise<unknown> {
  loading ??= Promise.all([
    import('./rest.css'),
    // Dialogs' placement and dragging (spec 01 §9), with the styles no first screen needs.
    import('../../shared/ui/dialogs').then((dialogs) => dialogs.placeDialogs()),
  ]).catch((error: unknown) => {
    // Tried again by the next page; the page itself still opens.
    loading = undefined;
    console.error('Styles could not be loaded', error);
  });
  return loading;
}
