import { STARRED_PAGES_LIMIT } from '@caredeck/domain';
import { useCallback, useState } from 'react';
import { readJson, writeJson } from '../../shared/browser-storage';

/** Starred pages are remembered per user on this device (01 §2: at most 10). */
export function starredPagesKey(userId: number): string {
  return `caredeck.starredPages.${userId}`;
}

export function readStarredPages(userId: number): string[] {
  const value = readJson(starredPagesKey(userId));
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export type StarResult = 'starred' | 'unstarred' | 'limitReached';

export function toggleStarredPage(userId: number, routeId: string): { result: StarResult; pages: string[] } {
  const pages = readStarredPages(userId);
  if (pages.includes(routeId)) {
    const next = pages.filter((page) => page !== routeId);
    writeJson(starredPagesKey(userId), next);
    return { result: 'unstarred', pages: next };
  }
  if (pages.length >= STARRED_PAGES_LIMIT) return { result: 'limitReached', pages };
  const next = [...pages, routeId];
  writeJson(starredPagesKey(userId), next);
  return { result: 'starred', pages: next };
}

export function useStarredPages(userId: number) {
  const [state, setState] = useState(() => ({ userId, pages: readStarredPages(userId) }));
  // Another user on the same tab (after a sign-in without reload) has their own stars.
  const current = state.userId === userId ? state : { userId, pages: readStarredPages(userId) };
  if (current !== state) setState(current);
  const toggle = useCallback(
    (routeId: string): StarResult => {
      const { result, pages } = toggleStarredPage(userId, routeId);
      setState({ userId, pages });
      return result;
    },
    [userId],
  );
  return { pages: current.pages, toggle };
}
