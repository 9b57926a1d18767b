/**
 * How simulated patients behave: the doses they take against their regimen's schedule and the readings
 * their devices take. Deterministic for a given random source, so the demo seed is the same every time.
 * Used by the demo seed (90 days of history), the simulator CLI (live) and the benchmarks (load).
 */
import { expandSchedule, type ScheduleRegimen } from '@caredeck/domain';

export const PROFILES = ['adherent', 'forgetful', 'double_dosing', 'offline'] as const;
export type Profile = (typeof PROFILES)[number];

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A small seeded generator (mulberry32): the same seed gives the same patients. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Most patients are adherent; some forget, some take doses twice, some devices go offline. */
export function profileFor(index: number): Profile {
  const r = (index * 2_654_435_761) % 100;
  if (r < 55) return 'adherent';
  if (r < 80) return 'forgetful';
  if (r < 90) return 'double_dosing';
  return 'offline';
}

type Behaviour = { take: number; late: number; skip: number; double: number; spread: number };
const BEHAVIOUR: Record<Profile, Behaviour> = {
  adherent: { take: 0.95, late: 0.04, skip: 0.01, double: 0, spread: 25 },
  forgetful: { take: 0.68, late: 0.18, skip: 0.03, double: 0, spread: 45 },
  double_dosing: { take: 0.9, late: 0.06, skip: 0, double: 0.18, spread: 30 },
  offline: { take: 0.93, late: 0.05, skip: 0.01, double: 0, spread: 25 },
};

export type SimulatedDose = { at: number; kind: 'taken' | 'skipped' };

/**
 * The dose events of one regimen over [from, to), never after `now`. An 'offline' patient's device stops
 * reporting 5 to 12 days before `now`.
 */
export function simulateDoses(input: {
  regimen: ScheduleRegimen;
  zone: string;
  from: number;
  to: number;
  now: number;
  profile: Profile;
  random: () => number;
}): SimulatedDose[] {
  const b = BEHAVIOUR[input.profile];
  const silentFrom =
    input.profile === 'offline' ? input.now - (5 + Math.floor(input.random() * 8)) * DAY : Infinity;
  const out: SimulatedDose[] = [];
  for (const dose of expandSchedule(input.regimen, input.zone, input.from, input.to)) {
    const r = input.random();
    let at: number;
    if (r < b.skip) {
      at = dose.scheduledAt + Math.floor(input.random() * 20) * MINUTE;
      if (at < silentFrom && at <= input.now) out.push({ at, kind: 'skipped' });
      continue;
    }
    if (r >= b.skip + b.take) continue; // forgotten: missed
    const late = input.random() < b.late;
    const offset = late
      ? 65 + input.random() * 90
      : -Math.min(input.regimen.unlockBeforeMinutes, 15) + input.random() * b.spread;
    at = Math.round(dose.scheduledAt + offset * MINUTE);
    if (at >= silentFrom || at > input.now) continue;
    out.push({ at, kind: 'taken' });
    if (input.random() < b.double) {
      const again = at + Math.round((5 + input.random() * 40) * MINUTE);
      if (again <= input.now && again < silentFrom) out.push({ at: again, kind: 'taken' });
    }
  }
  return out;
}

export type SimulatedReading = { at: number; values: Record<string, number> };

/**
 * Daily morning readings of a blood-pressure cuff (systolic, diastolic, pulse) or a pulse oximeter
 * (oxygen, pulse) around a patient's own baseline, or a wearable's night of sleep and day of steps and
 * active minutes; some days skipped.
 */
export function simulateReadings(input: {
  device: 'bp_cuff' | 'pulse_oximeter' | 'wearable';
  from: number;
  to: number;
  now: number;
  random: () => number;
  /** The patient's usual systolic (hypertensive patients run above 140). */
  baselineSystolic?: number;
}): SimulatedReading[] {
  const out: SimulatedReading[] = [];
  const base = input.baselineSystolic ?? 118 + input.random() * 30;
  const noise = (spread: number) => (input.random() - 0.5) * 2 * spread;
  for (let day = input.from; day < input.to; day += DAY) {
    if (input.random() < 0.12) continue; // not measured that day
    const at = Math.round(day + (7 + input.random() * 3) * 60 * MINUTE);
    if (at > input.now) break;
    if (input.device === 'wearable') {
      // The night's sleep, reported at wake-up; the day's steps and active minutes in the evening.
      out.push({ at, values: { sleep: Math.round(420 + noise(70)) } });
      const evening = Math.round(day + (21 + input.random()) * 60 * MINUTE);
      if (evening <= input.now)
        out.push({
          at: evening,
          values: { steps: Math.round(6500 + noise(4500)), active_minutes: Math.round(35 + noise(25)) },
        });
      continue;
    }
    if (input.device === 'bp_cuff') {
      const systolic = Math.round(base + noise(12));
      out.push({
        at,
        values: {
          systolic,
          diastolic: Math.round(systolic * 0.62 + noise(6)),
          pulse: Math.round(72 + noise(12)),
        },
      });
    } else {
      out.push({
        at,
        values: { oxygen: Math.min(100, Math.round(96 + noise(3))), pulse: Math.round(74 + noise(12)) },
      });
    }
  }
  return out;
}
