import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { createStore, useStore } from '../shared/ui/createStore';
import type { AppRouteHandle } from './routeTypes';

/** A more precise title than the route's, set by a screen whose title follows its state (the sign-in steps). */
export const pageTitleOverride = createStore<string | null>(null);

/** Names the screen on show in the browser tab while it is mounted. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    pageTitleOverride.set(title);
    return () => pageTitleOverride.set((current) => (current === title ? null : current));
  }, [title]);
}

/** 'Patients · CareDeck': the screen first, so tabs and history tell screens apart. */
export function documentTitle(page: string | null, appName: string): string {
  return page ? `${page} · ${appName}` : appName;
}

/** Keeps `document.title` to the screen's own title, translated: its override, else its route's `titleKey`. */
export function useDocumentTitle(): void {
  const { t } = useTranslation();
  const matches = useMatches();
  const override = useStore(pageTitleOverride);
  const titleKey = matches
    .map((match) => (match.handle as AppRouteHandle | undefined)?.appRoute?.titleKey)
    .findLast((key) => key !== undefined);
  const title = documentTitle(override ?? (titleKey ? t(titleKey) : null), t('app.name'));
  useEffect(() => {
    document.title = title;
  }, [title]);
}
