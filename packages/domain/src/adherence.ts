/**
 * The adherence engine: expands a regimen's schedule into expected doses in the patient's time zone and
 * classifies each against the dose events. Pure and deterministic: the server's API, the adherence
 * calendar and the KPIs all read its numbers. The rules, with worked examples, are in docs/adherence.md.
 */
import { dateOfDayNumber, dayNumber, isoDate, type LocalDate, localDateOf, zonedInstant } from './zoned-time';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The program's default on-time allowance: a dose taken up to this long after its time is on time. */
export const DEFAULT_ON_TIME_MINUTES = 60;

export type ScheduleRepeat = 'daily' | 'weekly' | 'monthly' | 'as_needed';

/** What the engine needs of a regimen (01 §3 Regimen), instants in epoch milliseconds. */
export type ScheduleRegimen = {
  id: number;
  repeat: ScheduleRepeat;
  /** Every `interval` days, weeks or months, counted from the local date of `scheduledAt`. */
  interval: number;
  /** Times of day, 'HH:MM', in the patient's zone. */
  times: readonly string[];
  /** A late dose moves the later doses of the same day by as much. */
  timeCascade: boolean;
  /** The window closes this many minutes after the dose time; 0: when the next dose's window opens. */
  lockoutMinutes: number;
  /** The window opens this many minutes before the dose time. */
  unlockBeforeMinutes: number;
  scheduledAt: number;
  endAt: number | null;
  /** A dose is `num` pods, each dispensed separately; all of them inside the window take the dose. */
  multiPod: boolean;
  num: number;
};

export type ExpectedDose = {
  regimenId: number;
  /** The local date and time of day the schedule names (before any DST adjustment or cascade). */
  date: string;
  time: string;
  /** The instant the dose is due (after DST rules and any cascade). */
  scheduledAt: number;
  windowOpen: number;
  windowClose: number;
};

export type DoseEventKind = 'taken' | 'skipped';

export type DoseEvent = {
  id: number | string;
  regimenId: number;
  at: number;
  kind: DoseEventKind;
};

export const DOSE_STATES = ['on_time', 'late', 'missed', 'skipped', 'partial', 'pending'] as const;
export type DoseState = (typeof DOSE_STATES)[number];

export type ClassifiedDose = ExpectedDose & {
  state: DoseState;
  /** When the dose was taken (for multi-pod: when its last pod was dispensed). */
  takenAt: number | null;
  /** The events that decided the state. */
  eventIds: (number | string)[];
};

export type AdherenceTotals = {
  due: number;
  on_time: number;
  late: number;
  missed: number;
  skipped: number;
  partial: number;
  pending: number;
  /** (on time + late) / due, in percent with two decimals; null with nothing due. */
  adherence: number | null;
  /** on time / due, in percent with two decimals; null with nothing due. */
  compliance: number | null;
};

export type AdherenceDay = AdherenceTotals & { date: string };

export type AdherenceResult = {
  doses: ClassifiedDose[];
  /** Doses taken outside every window or beyond the first in one. */
  extra: DoseEvent[];
  /** Doses of as-needed regimens: neither expected nor extra. */
  asNeeded: DoseEvent[];
  total: AdherenceTotals;
  regimens: Record<number, AdherenceTotals>;
  days: AdherenceDay[];
};

export type AdherenceInput = {
  regimens: readonly ScheduleRegimen[];
  events: readonly DoseEvent[];
  zone: string;
  /** The range [from, to): doses scheduled and extra events inside it are reported. */
  from: number;
  to: number;
  /** Windows closing after `now` without a decision are pending. */
  now: number;
  onTimeMinutes?: number;
};

/** How far before `from` the events of a range must be read (a window can open early). */
export function eventLookbehind(regimens: readonly ScheduleRegimen[]): number {
  return Math.max(2 * DAY, ...regimens.map((r) => r.unlockBeforeMinutes * MINUTE + DAY));
}

function minuteOfDay(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The local dates of the schedule between two day numbers (inclusive). */
function occurrenceDates(r: ScheduleRegimen, anchor: LocalDate, fromDay: number, toDay: number): LocalDate[] {
  const out: LocalDate[] = [];
  const anchorDay = dayNumber(anchor);
  const interval = Math.max(1, r.interval);
  if (r.repeat === 'daily' || r.repeat === 'weekly') {
    const step = r.repeat === 'daily' ? interval : 7 * interval;
    let n = Math.max(anchorDay, fromDay);
    const rem = (n - anchorDay) % step;
    if (rem !== 0) n += step - rem;
    for (; n <= toDay; n += step) out.push(dateOfDayNumber(n));
  } else if (r.repeat === 'monthly') {
    const anchorMonth = anchor.year * 12 + (anchor.month - 1);
    const first = dateOfDayNumber(Math.max(anchorDay, fromDay));
    let m = first.year * 12 + (first.month - 1) - 1;
    const rem = (((m - anchorMonth) % interval) + interval) % interval;
    if (rem !== 0) m += interval - rem;
    for (; ; m += interval) {
      const year = Math.floor(m / 12);
      const month = (m % 12) + 1;
      const d = { year, month, day: Math.min(anchor.day, daysInMonth(year, month)) };
      const n = dayNumber(d);
      if (n > toDay) break;
      if (n >= anchorDay && n >= fromDay) out.push(d);
    }
  }
  return out;
}

function lookaheadDays(r: ScheduleRegimen): number {
  const interval = Math.max(1, r.interval);
  return r.repeat === 'weekly' ? 7 * interval + 1 : r.repeat === 'monthly' ? 31 * interval + 1 : interval + 1;
}

/**
 * The expected doses of a regimen scheduled in [from, to), in time order. Doses before `scheduledAt` or
 * after `endAt` are not expected; as-needed regimens expect none.
 */
export function expandSchedule(r: ScheduleRegimen, zone: string, from: number, to: number): ExpectedDose[] {
  if (r.repeat === 'as_needed' || r.times.length === 0 || to <= from) return [];
  const start = Math.max(from, r.scheduledAt);
  const end = r.endAt === null ? to : Math.min(to, r.endAt + 1);
  if (end <= start) return [];
  const anchor = localDateOf(r.scheduledAt, zone);
  const times = [...r.times].sort();
  const fromDay = dayNumber(localDateOf(start, zone)) - 1;
  const toDay = dayNumber(localDateOf(end, zone)) + 1;
  // One further occurrence past the range: a window without lockout closes when the next one opens.
  const dates = occurrenceDates(r, anchor, fromDay, toDay + lookaheadDays(r));
  const all: { date: LocalDate; time: string; at: number }[] = [];
  for (const date of dates)
    for (const time of times) {
      const at = zonedInstant(date, minuteOfDay(time), zone);
      if (at >= r.scheduledAt && (r.endAt === null || at <= r.endAt)) all.push({ date, time, at });
    }
  all.sort((a, b) => a.at - b.at);
  const doses: ExpectedDose[] = [];
  for (let i = 0; i < all.length; i++) {
    const d = all[i]!;
    if (d.at < start || d.at >= end) continue;
    const windowOpen = d.at - r.unlockBeforeMinutes * MINUTE;
    let windowClose: number;
    if (r.lockoutMinutes > 0) windowClose = d.at + r.lockoutMinutes * MINUTE;
    else {
      // The next dose at a later instant: a spring-forward gap can move a dose onto another one (02:30 → 03:30
      // beside a 03:30 dose), and both then share the window that ends when a later one opens.
      let j = i + 1;
      while (j < all.length && all[j]!.at <= d.at) j++;
      const next = all[j];
      let nextOpen = next ? next.at - r.unlockBeforeMinutes * MINUTE : Number.POSITIVE_INFINITY;
      // A next window that opens before this dose is due (doses closer than the unlock lead) still leaves this
      // dose its own time, until the next one is due.
      if (next && nextOpen <= d.at) nextOpen = next.at;
      windowClose = Math.min(nextOpen, d.at + DAY);
    }
    doses.push({
      regimenId: r.id,
      date: isoDate(d.date),
      time: d.time,
      scheduledAt: d.at,
      windowOpen,
      windowClose,
    });
  }
  return doses;
}

function emptyTotals(): AdherenceTotals {
  return {
    due: 0,
    on_time: 0,
    late: 0,
    missed: 0,
    skipped: 0,
    partial: 0,
    pending: 0,
    adherence: null,
    compliance: null,
  };
}

function percent(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part * 10_000) / whole) / 100;
}

function count(totals: AdherenceTotals, state: DoseState): void {
  totals[state]++;
  if (state !== 'pending') totals.due++;
}

function finish<T extends AdherenceTotals>(totals: T): T {
  totals.adherence = percent(totals.on_time + totals.late, totals.due);
  totals.compliance = percent(totals.on_time, totals.due);
  return totals;
}

/** A window that closed without the dose taken or skipped: partial with some of its pods, else missed. */
function closedUndecided(podsTaken: number): 'partial' | 'missed' {
  return podsTaken > 0 ? 'partial' : 'missed';
}

/**
 * What a pending dose becomes when its window closes and no further event has come: the state the engine
 * will give it then. (A pending dose's `eventIds` are the pods dispensed so far.)
 */
export function stateAtClose(dose: ClassifiedDose): 'partial' | 'missed' {
  return closedUndecided(dose.eventIds.length);
}

/** Classifies one regimen's doses (in time order) against its events (in time order). */
function classifyRegimen(
  r: ScheduleRegimen,
  doses: ExpectedDose[],
  events: DoseEvent[],
  now: number,
  onTime: number,
): { classified: ClassifiedDose[]; unused: DoseEvent[] } {
  const used = new Set<number>();
  const classified: ClassifiedDose[] = [];
  const needed = r.multiPod ? Math.max(1, r.num) : 1;
  let cascadeDate = '';
  let shift = 0;
  let cursor = 0; // first event that can still fall in a window (windows move forward)
  for (const base of doses) {
    if (base.date !== cascadeDate) {
      cascadeDate = base.date;
      shift = 0;
    }
    const dose: ExpectedDose = r.timeCascade
      ? {
          ...base,
          scheduledAt: base.scheduledAt + shift,
          windowOpen: base.windowOpen + shift,
          windowClose: base.windowClose + shift,
        }
      : base;
    while (cursor < events.length && events[cursor]!.at < dose.windowOpen - DAY) cursor++;
    const taken: DoseEvent[] = [];
    let skip: DoseEvent | null = null;
    for (let i = cursor; i < events.length; i++) {
      const e = events[i]!;
      if (e.at > dose.windowClose) break;
      if (used.has(i) || e.at < dose.windowOpen) continue;
      if (e.kind === 'skipped') {
        if (taken.length === 0 && !skip) {
          skip = e;
          used.add(i);
          break;
        }
        continue;
      }
      taken.push(e);
      used.add(i);
      if (taken.length === needed) break;
    }
    let state: DoseState;
    let takenAt: number | null = null;
    if (skip) state = 'skipped';
    else if (taken.length === needed) {
      takenAt = taken[taken.length - 1]!.at;
      state = takenAt <= dose.scheduledAt + onTime * MINUTE ? 'on_time' : 'late';
      if (r.timeCascade && takenAt > dose.scheduledAt) shift += takenAt - dose.scheduledAt;
    } else if (dose.windowClose > now) {
      // Not decided yet: a partial multi-pod dose keeps its pods until the window closes.
      state = 'pending';
    } else state = closedUndecided(taken.length);
    classified.push({
      ...dose,
      state,
      takenAt,
      eventIds: skip ? [skip.id] : taken.map((e) => e.id),
    });
  }
  const unused = events.filter((e, i) => !used.has(i) && e.kind === 'taken');
  return { classified, unused };
}

/**
 * Classifies every expected dose of the regimens in [from, to) and reports the extra doses and the
 * percentages per regimen, per local day and in total. Events should cover [from − eventLookbehind, to +
 * the longest window]; doses scheduled before `from` take their own events and never count as extra.
 */
export function classifyAdherence(input: AdherenceInput): AdherenceResult {
  const onTime = input.onTimeMinutes ?? DEFAULT_ON_TIME_MINUTES;
  const byRegimen = new Map<number, DoseEvent[]>();
  for (const e of input.events) {
    const list = byRegimen.get(e.regimenId) ?? [];
    list.push(e);
    byRegimen.set(e.regimenId, list);
  }
  const inRange = (t: number) => t >= input.from && t < input.to;
  const doses: ClassifiedDose[] = [];
  const extra: DoseEvent[] = [];
  const asNeeded: DoseEvent[] = [];
  const regimens: Record<number, AdherenceTotals> = {};
  const total = emptyTotals();
  const days = new Map<string, AdherenceDay>();
  const known = new Set(input.regimens.map((r) => r.id));
  for (const r of input.regimens) {
    const events = (byRegimen.get(r.id) ?? []).slice().sort((a, b) => a.at - b.at);
    const totals = emptyTotals();
    regimens[r.id] = totals;
    if (r.repeat === 'as_needed') {
      asNeeded.push(...events.filter((e) => e.kind === 'taken' && inRange(e.at)));
      continue;
    }
    // Doses from a day before the range take the late events that belong to them, and doses just after it
    // the early ones (a window opens `unlockBefore` ahead): neither counts here, and neither event is extra,
    // whatever the range (the adherence rollup adds ranges up day by day, ADR 046).
    const expanded = expandSchedule(
      r,
      input.zone,
      input.from - 2 * DAY,
      input.to + r.unlockBeforeMinutes * MINUTE,
    );
    const { classified, unused } = classifyRegimen(r, expanded, events, input.now, onTime);
    for (const d of classified) {
      if (!inRange(d.scheduledAt)) continue;
      doses.push(d);
      count(totals, d.state);
      count(total, d.state);
      let day = days.get(d.date);
      if (!day) {
        day = { date: d.date, ...emptyTotals() };
        days.set(d.date, day);
      }
      count(day, d.state);
    }
    extra.push(...unused.filter((e) => inRange(e.at)));
    finish(totals);
  }
  // Events of regimens that expect nothing here (completed, or not asked for) are extra doses too.
  for (const [id, events] of byRegimen)
    if (!known.has(id)) extra.push(...events.filter((e) => e.kind === 'taken' && inRange(e.at)));
  doses.sort((a, b) => a.scheduledAt - b.scheduledAt || a.regimenId - b.regimenId);
  extra.sort((a, b) => a.at - b.at);
  asNeeded.sort((a, b) => a.at - b.at);
  return {
    doses,
    extra,
    asNeeded,
    total: finish(total),
    regimens,
    days: [...days.values()].sort((a, b) => a.date.localeCompare(b.date)).map(finish),
  };
}
