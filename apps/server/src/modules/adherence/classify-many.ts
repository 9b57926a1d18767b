import {
  type AdherenceResult,
  classifyAdherence,
  DEFAULT_DISPLAY_ZONE,
  DEFAULT_ON_TIME_MINUTES,
  type DoseEvent,
  eventLookbehind,
  resolveDisplayZone,
  type ScheduleRegimen,
} from '@caredeck/domain';
import type { Queryable } from '../../platform/db/client';
import { toSchedule } from './adherence.service';
import { DAY, type DateRange, rangeOf } from './calendar-range';
import {
  doseEventsOfPatients,
  doseEventsWithin,
  type KpiPatient,
  patientChunk,
  schedulesOfPatients,
} from './kpi.queries';

/** Patients classified per round of queries: memory stays flat however large the program. */
const CHUNK = 1000;

/** The engine's regimens of each patient, from the schedule rows of many patients. */
export function regimensByPatient(
  schedules: readonly (Parameters<typeof toSchedule>[0] & { patient_id: number })[],
): Map<number, ScheduleRegimen[]> {
  const regimensOf = new Map<number, ScheduleRegimen[]>();
  for (const s of schedules) {
    const list = regimensOf.get(s.patient_id) ?? [];
    list.push(toSchedule(s));
    regimensOf.set(s.patient_id, list);
  }
  return regimensOf;
}

export type ClassifiedPatient = {
  patient: KpiPatient;
  /** The patient's regimens with doses in the period (names are the medications'). */
  regimens: { id: number; name: string }[];
  result: AdherenceResult;
};

/**
 * Classifies every patient of the programs who has regimens over a period of calendar dates, each in their
 * own time zone, with the same engine as the calendar: three queries per 1,000 patients, never per patient.
 * Returns the period in the default display zone (what the KPI and the reports print).
 */
export async function classifyPatients(
  db: Queryable,
  programIds: number[],
  dates: { start: string; end: string },
  current: number,
  visit: (p: ClassifiedPatient) => void,
): Promise<DateRange> {
  const period = rangeOf(DEFAULT_DISPLAY_ZONE, dates.start, dates.end, current);
  let after = 0;
  for (;;) {
    const patients = await patientChunk(db, programIds, after, CHUNK);
    if (patients.length === 0) break;
    after = patients.at(-1)!.id;
    const ids = patients.map((p) => p.id);
    // Wide enough for every zone: a day either side, plus the longest early window.
    const wideFrom = new Date(period.from - 2 * DAY);
    const wideTo = new Date(period.to + 2 * DAY);
    const schedules = await schedulesOfPatients(db, ids, wideFrom, wideTo);
    const byPatient = new Map<
      number,
      { rows: { id: number; name: string }[]; regimens: ScheduleRegimen[] }
    >();
    for (const s of schedules) {
      const entry = byPatient.get(s.patient_id) ?? { rows: [], regimens: [] };
      entry.rows.push({ id: s.id, name: s.name });
      entry.regimens.push(toSchedule(s));
      byPatient.set(s.patient_id, entry);
    }
    const lookbehind = Math.max(0, ...[...byPatient.values()].map((r) => eventLookbehind(r.regimens)));
    const events = await doseEventsOfPatients(db, ids, new Date(period.from - lookbehind - DAY), wideTo);
    const eventsOf = new Map<number, DoseEvent[]>();
    for (const e of events) {
      const list = eventsOf.get(e.patient_id) ?? [];
      list.push({ id: e.id, regimenId: e.regimen_id, at: new Date(e.at).getTime(), kind: e.kind });
      eventsOf.set(e.patient_id, list);
    }
    for (const p of patients) {
      const entry = byPatient.get(p.id);
      if (!entry) continue;
      const zone = resolveDisplayZone(p.time_zone);
      const range = rangeOf(zone, period.start, period.end, current);
      const result = classifyAdherence({
        regimens: entry.regimens,
        events: eventsOf.get(p.id) ?? [],
        zone,
        from: range.from,
        to: range.to,
        now: current,
        onTimeMinutes: DEFAULT_ON_TIME_MINUTES,
      });
      visit({ patient: p, regimens: entry.rows, result });
    }
    if (patients.length < CHUNK) break;
  }
  return period;
}

/**
 * Classifies each patient over their own calendar dates [from, end] (the KPI's live part: what the rollup
 * does not cover), with the calendar's reach of regimens and events; three queries per 1,000 patients.
 */
export async function classifyFrom(
  db: Queryable,
  patients: { id: number; time_zone: string | null; from: string }[],
  end: string,
  current: number,
  visit: (patient: { id: number; from: string }, result: AdherenceResult) => void,
): Promise<void> {
  const ordered = [...patients].sort((a, b) => a.from.localeCompare(b.from) || a.id - b.id);
  for (let i = 0; i < ordered.length; i += CHUNK) {
    const chunk = ordered.slice(i, i + CHUNK).map((p) => {
      const zone = resolveDisplayZone(p.time_zone);
      return { ...p, zone, range: rangeOf(zone, p.from, end, current) };
    });
    const wideFrom = Math.min(...chunk.map((p) => p.range.from)) - 2 * DAY;
    const wideTo = Math.max(...chunk.map((p) => p.range.to)) + 2 * DAY;
    const schedules = await schedulesOfPatients(
      db,
      chunk.map((p) => p.id),
      new Date(wideFrom),
      new Date(wideTo),
      { asNeededAlways: true },
    );
    const regimensOf = regimensByPatient(schedules);
    const events = await doseEventsWithin(
      db,
      chunk.map((p) => ({
        id: p.id,
        from: p.range.from - eventLookbehind(regimensOf.get(p.id) ?? []) - DAY,
        to: p.range.to + 2 * DAY,
      })),
    );
    const eventsOf = new Map<number, DoseEvent[]>();
    for (const e of events) {
      const list = eventsOf.get(e.patient_id) ?? [];
      list.push({ id: e.id, regimenId: e.regimen_id, at: new Date(e.at).getTime(), kind: e.kind });
      eventsOf.set(e.patient_id, list);
    }
    for (const p of chunk)
      visit(
        p,
        classifyAdherence({
          regimens: regimensOf.get(p.id) ?? [],
          events: eventsOf.get(p.id) ?? [],
          zone: p.zone,
          from: p.range.from,
          to: p.range.to,
          now: current,
          onTimeMinutes: DEFAULT_ON_TIME_MINUTES,
        }),
      );
  }
}
