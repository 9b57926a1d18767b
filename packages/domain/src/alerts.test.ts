import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ALERT_SETTINGS,
  effectiveSettings,
  evaluateVitals,
  isSnoozed,
  offlineAfterMs,
  type Reading,
  verdictSummary,
} from './alerts';

const MIN = 60_000;
const reading = (type: string, value: number, at: number): Reading => ({ type, value, at });
const bpOf = (verdicts: ReturnType<typeof evaluateVitals>) =>
  verdicts.find((v) => v.type === 'out_range_blood_pressure_alerts');

describe('evaluateVitals', () => {
  it('compares the newest reading alone by default, and explains the breach', () => {
    const v = evaluateVitals(
      [reading('systolic', 120, 0), reading('systolic', 172, 10 * MIN), reading('diastolic', 88, 10 * MIN)],
      DEFAULT_ALERT_SETTINGS,
    );
    const bp = bpOf(v)!;
    expect(bp.breached).toBe(true);
    expect(bp.at).toBe(10 * MIN);
    expect(verdictSummary(bp)).toBe('Systolic 172 ≥ 160');
    expect(v.find((x) => x.type === 'low_blood_pressure_alerts')!.breached).toBe(false);
    // No oxygen or pulse reading: no verdict at all for pulse oximetry.
    expect(v.find((x) => x.type === 'out_range_pulse_ox_alerts')).toBeUndefined();
  });

  it('averages the readings of the window before the newest one', () => {
    const s = { ...DEFAULT_ALERT_SETTINGS, window_minutes: 30 };
    const readings = [
      reading('systolic', 200, 0), // outside the window
      reading('systolic', 150, 40 * MIN),
      reading('systolic', 175, 60 * MIN),
    ];
    const bp = bpOf(evaluateVitals(readings, s))!;
    expect(bp.checks[0]).toMatchObject({ measure: 'systolic', average: 162.5, count: 2, breached: true });
    expect(verdictSummary(bp)).toBe('Systolic 162.5 ≥ 160 (average of 2 readings)');
  });

  it('property: a verdict breaches exactly when some average crosses its threshold, whatever the order of the readings', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            type: fc.constantFrom('systolic', 'diastolic', 'oxygen', 'pulse'),
            value: fc.integer({ min: 20, max: 250 }),
            at: fc.integer({ min: 0, max: 120 }).map((m) => m * MIN),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        fc.integer({ min: 0, max: 90 }),
        (readings, window) => {
          const s = { ...DEFAULT_ALERT_SETTINGS, window_minutes: window };
          const a = evaluateVitals(readings, s);
          const b = evaluateVitals([...readings].reverse(), s);
          expect(a.map((v) => [v.type, v.breached, v.at])).toEqual(b.map((v) => [v.type, v.breached, v.at]));
          for (const v of a) {
            expect(v.breached).toBe(v.checks.some((c) => c.breached));
            for (const c of v.checks) {
              const newest = Math.max(...readings.filter((r) => r.type === c.measure).map((r) => r.at));
              const inWindow = readings.filter(
                (r) => r.type === c.measure && r.at >= newest - window * MIN && r.at <= newest,
              );
              expect(c.count).toBe(inWindow.length);
              expect(
                Math.abs(c.average - inWindow.reduce((n, r) => n + r.value, 0) / inWindow.length),
              ).toBeLessThanOrEqual(0.051);
            }
          }
        },
      ),
    );
  });

  it('property: raising blood pressure never clears a high-pressure breach', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 80, max: 220 }), { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 1, max: 50 }),
        (values, raise) => {
          const s = { ...DEFAULT_ALERT_SETTINGS, window_minutes: 60 };
          const at = (i: number) => i * MIN;
          const base = bpOf(
            evaluateVitals(
              values.map((v, i) => reading('systolic', v, at(i))),
              s,
            ),
          )!;
          const higher = bpOf(
            evaluateVitals(
              values.map((v, i) => reading('systolic', v + raise, at(i))),
              s,
            ),
          )!;
          if (base.breached) expect(higher.breached).toBe(true);
        },
      ),
    );
  });
});

describe('effectiveSettings', () => {
  it('patient beats cohort beats program beats default, whatever order the levels come in', () => {
    const { settings, source } = effectiveSettings([
      { level: 'patient', settings: { systolic_high: 140 } },
      { level: 'program', settings: { systolic_high: 150, window_minutes: 30 } },
      { level: 'cohort', settings: { systolic_high: 145, oxygen_low: 92 } },
    ]);
    expect(settings).toMatchObject({
      systolic_high: 140,
      window_minutes: 30,
      oxygen_low: 92,
      diastolic_high: 100,
    });
    expect(source).toMatchObject({
      systolic_high: 'patient',
      window_minutes: 'program',
      oxygen_low: 'cohort',
      diastolic_high: 'default',
    });
  });

  it('ignores keys it does not know', () => {
    const { settings } = effectiveSettings([{ level: 'program', settings: { nonsense: 1 } as never }]);
    expect(settings).toEqual(DEFAULT_ALERT_SETTINGS);
  });
});

describe('timers', () => {
  it('a dispenser is offline after max(30 min, 2 × its heartbeat)', () => {
    expect(offlineAfterMs(DEFAULT_ALERT_SETTINGS)).toBe(30 * MIN);
    expect(offlineAfterMs({ ...DEFAULT_ALERT_SETTINGS, heartbeat_minutes: 60 })).toBe(120 * MIN);
  });

  it('property: a snooze holds for its whole time and never after', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: 1, max: 1e9 }), (start, length) => {
        const until = start + length;
        expect(isSnoozed(until, start)).toBe(true);
        expect(isSnoozed(until, until - 1)).toBe(true);
        expect(isSnoozed(until, until)).toBe(false);
        expect(isSnoozed(null, start)).toBe(false);
      }),
    );
  });
});
