import { MAX_ENTRY_SECONDS, TIMER_WARNING_MINUTES } from '@caredeck/contracts';
import { useEffect, useState } from 'react';
import { readJson, writeJson } from '../../shared/browser-storage';
import { createStore, useStore } from '../../shared/ui/createStore';

/**
 * The billing timer (01 §4 "Billing recording has a started flag and a warning flag"): one running timer per
 * staff member in this browser, kept in localStorage so a reload, a second tab or a sign-in again does not
 * lose the minutes. It holds ids only (no patient name: no PHI at rest in the browser).
 */
export type RunningTimer = { adminId: number; programId: number; patientId: number; startedAt: string };

export const TIMER_STORAGE_KEY = 'caredeck.billingTimer';

function read(): RunningTimer | null {
  const value = readJson(TIMER_STORAGE_KEY) as Partial<RunningTimer> | null;
  if (
    !value ||
    typeof value.adminId !== 'number' ||
    typeof value.programId !== 'number' ||
    typeof value.patientId !== 'number' ||
    typeof value.startedAt !== 'string' ||
    Number.isNaN(Date.parse(value.startedAt))
  )
    return null;
  return value as RunningTimer;
}

const store = createStore<RunningTimer | null>(read());
if (typeof window !== 'undefined')
  window.addEventListener('storage', (event) => {
    if (event.key === TIMER_STORAGE_KEY) store.set(read());
  });

export const billingTimer = {
  get: () => store.get(),
  start(timer: Omit<RunningTimer, 'startedAt'>, now = new Date()) {
    const next = { ...timer, startedAt: now.toISOString() };
    writeJson(TIMER_STORAGE_KEY, next);
    store.set(next);
  },
  clear() {
    writeJson(TIMER_STORAGE_KEY, null);
    store.set(null);
  },
};

/** The signed-in user's running timer, if any (another user's timer in the same browser is not theirs). */
export function useRunningTimer(adminId: number | null): RunningTimer | null {
  const timer = useStore(store);
  return timer && adminId !== null && timer.adminId === adminId ? timer : null;
}

/** Seconds since `startedAt`, ticking every second while mounted. */
export function useElapsed(startedAt: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!startedAt) return;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [startedAt]);
  return startedAt ? Math.max(0, Math.floor((now - Date.parse(startedAt)) / 1000)) : 0;
}

/** The warning flag: the timer has run past the warning time. */
export const isOverWarning = (seconds: number) => seconds >= TIMER_WARNING_MINUTES * 60;
/** A timer forgotten past the longest entry is recorded as the longest entry, ending at its cap. */
export const isOverCap = (seconds: number) => seconds > MAX_ENTRY_SECONDS;

/** 0:07:05 */
export function clock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}
