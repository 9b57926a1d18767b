import { expandSchedule, type ScheduleRegimen } from '@caredeck/domain';
import { describe, expect, it } from 'vitest';
import { PROFILES, profileFor, seededRandom, simulateDoses, simulateReadings } from './behaviour';

const DAY = 86_400_000;
const now = Date.parse('2026-11-24T18:00:00Z');
const from = now - 60 * DAY;
const regimen: ScheduleRegimen = {
  id: 1,
  repeat: 'daily',
  interval: 1,
  times: ['08:00', '20:00'],
  timeCascade: false,
  lockoutMinutes: 180,
  unlockBeforeMinutes: 60,
  scheduledAt: from,
  endAt: null,
  multiPod: false,
  num: 1,
};

const run = (profile: (typeof PROFILES)[number], seed = 1) =>
  simulateDoses({
    regimen,
    zone: 'America/New_York',
    from,
    to: now,
    now,
    profile,
    random: seededRandom(seed),
  });

describe('simulated behaviour', () => {
  it('is the same for the same seed', () => {
    expect(run('forgetful', 7)).toEqual(run('forgetful', 7));
    expect(run('forgetful', 7)).not.toEqual(run('forgetful', 8));
  });

  it('gives adherent patients most doses, forgetful ones fewer, double-dosers extra ones', () => {
    const expected = expandSchedule(regimen, 'America/New_York', from, now).length;
    const taken = (p: (typeof PROFILES)[number]) => run(p).filter((d) => d.kind === 'taken').length;
    expect(taken('adherent') / expected).toBeGreaterThan(0.88);
    expect(taken('forgetful') / expected).toBeLessThan(0.8);
    expect(taken('double_dosing')).toBeGreaterThan(taken('adherent'));
  });

  it('stops an offline device days before now, and never reports the future', () => {
    const doses = run('offline');
    expect(Math.max(...doses.map((d) => d.at))).toBeLessThan(now - 4 * DAY);
    for (const p of PROFILES) for (const d of run(p)) expect(d.at).toBeLessThanOrEqual(now);
  });

  it('spreads profiles over patients and keeps readings plausible', () => {
    const counts = new Map<string, number>();
    for (let i = 1; i <= 1000; i++) counts.set(profileFor(i), (counts.get(profileFor(i)) ?? 0) + 1);
    expect(counts.get('adherent')).toBeGreaterThan(400);
    for (const p of PROFILES) expect(counts.get(p)).toBeGreaterThan(50);
    const readings = simulateReadings({ device: 'bp_cuff', from, to: now, now, random: seededRandom(3) });
    expect(readings.length).toBeGreaterThan(40);
    for (const r of readings) {
      expect(r.values.systolic).toBeGreaterThan(90);
      expect(r.values.systolic).toBeLessThan(200);
    }
  });
});
