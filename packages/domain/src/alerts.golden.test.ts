import { describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS, evaluateVitals, verdictSummary } from './alerts';

/**
 * The golden set of vital-sign alert cases (issue 10 §4): fixed readings (`type value @minute`) and
 * settings, with the verdict of each alert type and the line a care team reads, reviewed case by case.
 * A change that moves any of these is a clinical change: review it, then update the case.
 */
type Expected = Record<string, { breached: boolean; summary: string }>;
const GOLDEN: {
  name: string;
  readings: string[];
  settings: Partial<typeof DEFAULT_ALERT_SETTINGS>;
  expected: Expected;
}[] = [
  {
    name: 'normal blood pressure',
    readings: ['systolic 128 @0', 'diastolic 82 @0'],
    settings: {},
    expected: {
      out_range_blood_pressure_alerts: { breached: false, summary: 'Systolic 128 < 160; Diastolic 82 < 100' },
      low_blood_pressure_alerts: { breached: false, summary: 'Systolic 128 > 90; Diastolic 82 > 60' },
    },
  },
  {
    name: 'systolic exactly at the high threshold',
    readings: ['systolic 160 @0', 'diastolic 90 @0'],
    settings: {},
    expected: {
      out_range_blood_pressure_alerts: { breached: true, summary: 'Systolic 160 ≥ 160' },
      low_blood_pressure_alerts: { breached: false, summary: 'Systolic 160 > 90; Diastolic 90 > 60' },
    },
  },
  {
    name: 'systolic one below the high threshold',
    readings: ['systolic 159 @0', 'diastolic 99 @0'],
    settings: {},
    expected: {
      out_range_blood_pressure_alerts: { breached: false, summary: 'Systolic 159 < 160; Diastolic 99 < 100' },
      low_blood_pressure_alerts: { breached: false, summary: 'Systolic 159 > 90; Diastolic 99 > 60' },
    },
  },
  {
    name: 'diastolic alone high',
    readings: ['systolic 150 @0', 'diastolic 104 @0'],
    settings: {},
    expected: {
      out_range_blood_pressure_alerts: { breached: true, summary: 'Diastolic 104 ≥ 100' },
      low_blood_pressure_alerts: { breached: false, summary: 'Systolic 150 > 90; Diastolic 104 > 60' },
    },
  },
  {
    name: 'both high',
    readings: ['systolic 188 @0', 'diastolic 114 @0'],
    settings: {},
    expected: {
      out_range_blood_pressure_alerts: { breached: true, summary: 'Systolic 188 ≥ 160; Diastolic 114 ≥ 100' },
      low_blood_pressure_alerts: { breached: false, summary: 'Systolic 188 > 90; Diastolic 114 > 60' },
    },
  },
  {
    name: 'low systolic at the threshold',
    readings: ['systolic 90 @0', 'diastolic 70 @0'],
    settings: {},
    expected: {
      out_range_blood_pressure_alerts: { breached: false, summary: 'Systolic 90 < 160; Diastolic 70 < 100' },
      low_blood_pressure_alerts: { breached: true, summary: 'Systolic 90 ≤ 90' },
    },
  },
  {
    name: 'low diastolic',
    readings: ['systolic 100 @0', 'diastolic 55 @0'],
    settings: {},
    expected: {
      out_range_blood_pressure_alerts: { breached: false, summary: 'Systolic 100 < 160; Diastolic 55 < 100' },
      low_blood_pressure_alerts: { breached: true, summary: 'Diastolic 55 ≤ 60' },
    },
  },
  {
    name: 'newest reading decides without a window',
    readings: ['systolic 190 @0', 'diastolic 110 @0', 'systolic 130 @20', 'diastolic 85 @20'],
    settings: {},
    expected: {
      out_range_blood_pressure_alerts: { breached: false, summary: 'Systolic 130 < 160; Diastolic 85 < 100' },
      low_blood_pressure_alerts: { breached: false, summary: 'Systolic 130 > 90; Diastolic 85 > 60' },
    },
  },
  {
    name: '30-minute window averages a spike away',
    readings: ['systolic 130 @0', 'systolic 175 @20', 'systolic 140 @30', 'diastolic 85 @30'],
    settings: { window_minutes: 30 },
    expected: {
      out_range_blood_pressure_alerts: {
        breached: false,
        summary: 'Systolic 148.3 < 160 (average of 3 readings); Diastolic 85 < 100',
      },
      low_blood_pressure_alerts: {
        breached: false,
        summary: 'Systolic 148.3 > 90 (average of 3 readings); Diastolic 85 > 60',
      },
    },
  },
  {
    name: '30-minute window keeps a sustained high',
    readings: ['systolic 165 @0', 'systolic 170 @20', 'systolic 168 @30', 'diastolic 95 @30'],
    settings: { window_minutes: 30 },
    expected: {
      out_range_blood_pressure_alerts: {
        breached: true,
        summary: 'Systolic 167.7 ≥ 160 (average of 3 readings)',
      },
      low_blood_pressure_alerts: {
        breached: false,
        summary: 'Systolic 167.7 > 90 (average of 3 readings); Diastolic 95 > 60',
      },
    },
  },
  {
    name: 'a reading outside the window is left out',
    readings: ['systolic 220 @0', 'systolic 150 @60', 'diastolic 90 @60'],
    settings: { window_minutes: 30 },
    expected: {
      out_range_blood_pressure_alerts: { breached: false, summary: 'Systolic 150 < 160; Diastolic 90 < 100' },
      low_blood_pressure_alerts: { breached: false, summary: 'Systolic 150 > 90; Diastolic 90 > 60' },
    },
  },
  {
    name: 'patient threshold lower than the default',
    readings: ['systolic 150 @0', 'diastolic 92 @0'],
    settings: { systolic_high: 145 },
    expected: {
      out_range_blood_pressure_alerts: { breached: true, summary: 'Systolic 150 ≥ 145' },
      low_blood_pressure_alerts: { breached: false, summary: 'Systolic 150 > 90; Diastolic 92 > 60' },
    },
  },
  {
    name: 'oxygen low',
    readings: ['oxygen 88 @0', 'pulse 80 @0'],
    settings: {},
    expected: { out_range_pulse_ox_alerts: { breached: true, summary: 'Oxygen 88 < 90' } },
  },
  {
    name: 'oxygen at the threshold',
    readings: ['oxygen 90 @0', 'pulse 80 @0'],
    settings: {},
    expected: {
      out_range_pulse_ox_alerts: {
        breached: false,
        summary: 'Oxygen 90 ≥ 90; Pulse 80 ≥ 40; Pulse 80 ≤ 130',
      },
    },
  },
  {
    name: 'pulse too fast',
    readings: ['oxygen 97 @0', 'pulse 135 @0'],
    settings: {},
    expected: { out_range_pulse_ox_alerts: { breached: true, summary: 'Pulse 135 > 130' } },
  },
  {
    name: 'pulse too slow',
    readings: ['oxygen 97 @0', 'pulse 38 @0'],
    settings: {},
    expected: { out_range_pulse_ox_alerts: { breached: true, summary: 'Pulse 38 < 40' } },
  },
  {
    name: 'pulse only, normal',
    readings: ['pulse 72 @0'],
    settings: {},
    expected: { out_range_pulse_ox_alerts: { breached: false, summary: 'Pulse 72 ≥ 40; Pulse 72 ≤ 130' } },
  },
  {
    name: 'weight only: no vital verdict',
    readings: ['weight 82 @0'],
    settings: {},
    expected: {},
  },
];

describe('golden alert cases', () => {
  it.each(GOLDEN)('$name', ({ readings, settings, expected }) => {
    const parsed = readings.map((r) => {
      const [type, value, at] = r.split(/ @| /);
      return { type: type!, value: Number(value), at: Number(at) * 60_000 };
    });
    const verdicts = evaluateVitals(parsed, { ...DEFAULT_ALERT_SETTINGS, ...settings });
    const got = Object.fromEntries(
      verdicts.map((v) => [v.type, { breached: v.breached, summary: verdictSummary(v) }]),
    );
    expect(got).toEqual(expected);
  });
});
