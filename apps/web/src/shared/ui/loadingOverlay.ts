import { createStore, useStore } from './createStore';

/** The console's full-page loading overlay; hidden again after every navigation (01 §2). */
export const loadingOverlay = createStore(false);

export const showLoadingOverlay = () => loadingOverlay.set(true);
export const hideLoadingOverlay = () => loadingOverlay.set(false);

export function useLoadingOverlay(): boolean {
  return useStore(loadingOverlay);
}
