import { useEffect, useRef } from 'react';
import { useLocation, useMatches } from 'react-router';
import { recordPageTime } from '../../features/identity/calls';
import { session } from '../auth/session';
import type { AppRouteHandle } from '../routeTypes';

interface PageVisit {
  path: string;
  name: string | null;
  subjectId: number | null;
  since: number;
}

export interface PageTimeTarget {
  programId: number;
  userId: number;
}

function isAppRouteHandle(handle: unknown): handle is AppRouteHandle {
  return typeof handle === 'object' && handle !== null && 'appRoute' in handle;
}

/** The patient (or other subject) a page is about, from its path parameters. */
function subjectOf(params: Record<string, string | undefined>): number | null {
  const raw = params.patientId ?? params.id ?? null;
  const id = raw === null ? Number.NaN : Number(raw);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * Page time (01 §2, 02 "session log"): when the path changes, the time spent on the page being left is
 * recorded with its path, route name and subject. Failures are logged only.
 */
export function usePageTime(target: PageTimeTarget | null): void {
  const { pathname } = useLocation();
  const matches = useMatches();
  const visit = useRef<PageVisit | null>(null);
  const targetRef = useRef(target);
  targetRef.current = target;

  const leaf = [...matches].reverse().find((match) => isAppRouteHandle(match.handle));
  const name = leaf && isAppRouteHandle(leaf.handle) ? leaf.handle.appRoute.id : null;
  const subjectId = subjectOf(leaf?.params ?? {});

  useEffect(() => {
    const left = visit.current;
    visit.current = { path: pathname, name, subjectId, since: Date.now() };
    if (left) send(left, targetRef.current);
  }, [pathname, name, subjectId]);

  // Leaving the console altogether (e.g. to a public page) ends the visit too.
  useEffect(
    () => () => {
      if (visit.current) send(visit.current, targetRef.current);
      visit.current = null;
    },
    [],
  );
}

function send(left: PageVisit, target: PageTimeTarget | null): void {
  if (!target || session.get().status !== 'signedIn') return;
  const seconds = Math.min(86_400, Math.max(0, Math.round((Date.now() - left.since) / 1000)));
  recordPageTime(target.programId, target.userId, {
    path: left.path,
    time_s: seconds,
    name: left.name,
    subject_id: left.subjectId,
  }).catch((error: unknown) => console.warn('Page time could not be recorded', error));
}
