/**
 * The alert engine's decisions, free of storage (docs/alerts.md): which thresholds apply to a patient,
 * and whether a patient's recent readings breach them. The server feeds these with rows and stores the
 * verdicts; everything here is deterministic and property-tested.
 */

/** Thresholds and timers an alert evaluation reads. Programs, cohorts and patients override any of them. */
export type AlertSettings = {
  /** out_range_blood_pressure_alerts: the window's average systolic at or above … */
  systolic_high: number;
  /** … or its average diastolic at or above this (mmHg). */
  diastolic_high: number;
  /** low_blood_pressure_alerts: average systolic at or below … */
  systolic_low: number;
  /** … or average diastolic at or below this (mmHg). */
  diastolic_low: number;
  /** out_range_pulse_ox_alerts: average SpO₂ below this (%) … */
  oxygen_low: number;
  /** … or average pulse outside [pulse_low, pulse_high] (beats per minute). */
  pulse_low: number;
  pulse_high: number;
  /**
   * "Outside the range for N minutes": readings of the last N minutes before the newest one are averaged
   * and the average is compared. 0 compares the newest reading alone.
   */
  window_minutes: number;
  /** missed_physiological_readings_alerts: a patient with a measuring device and no reading for this long. */
  reading_gap_hours: number;
  /** disconnected_dispensers: offline after max(offline_minutes, 2 × heartbeat_minutes) without a sign of life. */
  offline_minutes: number;
  heartbeat_minutes: number;
  /** low_medication_pods: a pod of an active regimen with this many servings left or fewer. */
  low_servings: number;
  /** low_adherence: adherence of the last `adherence_days` days below this (%). */
  low_adherence: number;
  adherence_days: number;
  /** An alert nobody acknowledged for this long is escalated to `escalate_to_role` (0 = never). */
  escalate_after_minutes: number;
  escalate_to_role: string;
};

export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  systolic_high: 160,
  diastolic_high: 100,
  systolic_low: 90,
  diastolic_low: 60,
  oxygen_low: 90,
  pulse_low: 40,
  pulse_high: 130,
  window_minutes: 0,
  reading_gap_hours: 72,
  offline_minutes: 30,
  heartbeat_minutes: 15,
  low_servings: 3,
  low_adherence: 80,
  adherence_days: 7,
  escalate_after_minutes: 0,
  escalate_to_role: 'physician',
};

export type SettingsLevel = 'default' | 'program' | 'cohort' | 'patient';

/**
 * The settings of one patient: the defaults, then the program's, then the cohorts' (in cohort id order),
 * then the patient's own, each level replacing the keys it sets. `source` says which level gave each key.
 */
export function effectiveSettings(
  levels: readonly { level: Exclude<SettingsLevel, 'default'>; settings: Partial<AlertSettings> }[],
): { settings: AlertSettings; source: Record<keyof AlertSettings, SettingsLevel> } {
  const settings = { ...DEFAULT_ALERT_SETTINGS };
  const source = Object.fromEntries(Object.keys(settings).map((k) => [k, 'default'])) as Record<
    keyof AlertSettings,
    SettingsLevel
  >;
  const order: Record<string, number> = { program: 0, cohort: 1, patient: 2 };
  for (const { level, settings: s } of [...levels].sort((a, b) => order[a.level]! - order[b.level]!)) {
    for (const [k, v] of Object.entries(s) as [keyof AlertSettings, unknown][]) {
      if (v === undefined || v === null || !(k in settings)) continue;
      (settings as Record<string, unknown>)[k] = v;
      source[k] = level;
    }
  }
  return { settings, source };
}

export type Reading = { type: string; value: number; at: number };

export const VITAL_ALERT_TYPES = [
  'out_range_blood_pressure_alerts',
  'low_blood_pressure_alerts',
  'out_range_pulse_ox_alerts',
] as const;
export type VitalAlertType = (typeof VITAL_ALERT_TYPES)[number];

/** The measurement types each vital alert reads. */
export const VITAL_ALERT_READINGS: Record<VitalAlertType, readonly string[]> = {
  out_range_blood_pressure_alerts: ['systolic', 'diastolic'],
  low_blood_pressure_alerts: ['systolic', 'diastolic'],
  out_range_pulse_ox_alerts: ['oxygen', 'pulse'],
};

export type VitalVerdict = {
  type: VitalAlertType;
  /** True: the condition holds (open or count the alert); false: it cleared (resolve an open alert). */
  breached: boolean;
  /** The newest reading the verdict rests on (an alert's last occurrence). */
  at: number;
  /** Why: each compared average with its threshold, and the readings averaged. */
  checks: {
    measure: string;
    average: number;
    count: number;
    comparison: '>=' | '<=' | '<' | '>';
    threshold: number;
    breached: boolean;
  }[];
  readings: Reading[];
};

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * The verdict of each vital alert over one patient's recent readings (any order). A measure is averaged
 * over the readings of the `window_minutes` before its newest reading (the newest alone when 0). An alert
 * without any reading of its measures gets no verdict: absence is the missed-readings alert's business.
 */
export function evaluateVitals(readings: readonly Reading[], s: AlertSettings): VitalVerdict[] {
  const byType = new Map<string, Reading[]>();
  for (const r of readings) {
    if (!Number.isFinite(r.value)) continue;
    const list = byType.get(r.type);
    if (list) list.push(r);
    else byType.set(r.type, [r]);
  }
  const windowOf = (type: string): Reading[] => {
    const list = byType.get(type);
    if (!list || list.length === 0) return [];
    const newest = Math.max(...list.map((r) => r.at));
    const from = newest - Math.max(0, s.window_minutes) * 60_000;
    return list.filter((r) => r.at >= from && r.at <= newest).sort((a, b) => a.at - b.at);
  };
  const check = (
    measure: string,
    comparison: '>=' | '<=' | '<' | '>',
    threshold: number,
  ): VitalVerdict['checks'][number] | null => {
    const w = windowOf(measure);
    if (w.length === 0) return null;
    const average = round1(w.reduce((sum, r) => sum + r.value, 0) / w.length);
    const breached =
      comparison === '>='
        ? average >= threshold
        : comparison === '<='
          ? average <= threshold
          : comparison === '<'
            ? average < threshold
            : average > threshold;
    return { measure, average, count: w.length, comparison, threshold, breached };
  };
  const verdict = (
    type: VitalAlertType,
    checks: (VitalVerdict['checks'][number] | null)[],
  ): VitalVerdict | null => {
    const present = checks.filter((c): c is VitalVerdict['checks'][number] => c !== null);
    if (present.length === 0) return null;
    const used = VITAL_ALERT_READINGS[type].flatMap((m) => windowOf(m));
    return {
      type,
      breached: present.some((c) => c.breached),
      at: Math.max(...used.map((r) => r.at)),
      checks: present,
      readings: used.sort((a, b) => a.at - b.at || a.type.localeCompare(b.type)),
    };
  };
  return [
    verdict('out_range_blood_pressure_alerts', [
      check('systolic', '>=', s.systolic_high),
      check('diastolic', '>=', s.diastolic_high),
    ]),
    verdict('low_blood_pressure_alerts', [
      check('systolic', '<=', s.systolic_low),
      check('diastolic', '<=', s.diastolic_low),
    ]),
    verdict('out_range_pulse_ox_alerts', [
      check('oxygen', '<', s.oxygen_low),
      check('pulse', '<', s.pulse_low),
      check('pulse', '>', s.pulse_high),
    ]),
  ].filter((v): v is VitalVerdict => v !== null);
}

/** The time after which a dispenser without any sign of life counts as disconnected (milliseconds). */
export function offlineAfterMs(s: AlertSettings): number {
  return Math.max(s.offline_minutes, 2 * s.heartbeat_minutes) * 60_000;
}

/**
 * One line a person reads first: the breached checks, e.g. "Systolic 172 ≥ 160 (average of 3 readings)";
 * when none is breached (the condition cleared), every check as it stands: "Systolic 124 < 160".
 */
export function verdictSummary(v: Pick<VitalVerdict, 'checks'>): string {
  const shown = v.checks.filter((c) => c.breached);
  const cleared = shown.length === 0;
  return (cleared ? v.checks : shown)
    .map((c) => {
      const name = c.measure[0]!.toUpperCase() + c.measure.slice(1);
      const sign = cleared
        ? { '>=': '<', '<=': '>', '<': '≥', '>': '≤' }[c.comparison]
        : { '>=': '≥', '<=': '≤', '<': '<', '>': '>' }[c.comparison];
      const of = c.count > 1 ? ` (average of ${c.count} readings)` : '';
      return `${name} ${c.average} ${sign} ${c.threshold}${of}`;
    })
    .join('; ');
}

/** A snooze silences one condition of one patient until its end; it never outlives `until`. */
export function isSnoozed(until: number | null | undefined, now: number): boolean {
  return until !== null && until !== undefined && until > now;
}

export type Comparison = '>' | '>=' | '<' | '<=' | '=';

/** A rule's criterion: `value comparison threshold` (equality to one decimal). */
export function compareValue(value: number, comparison: Comparison, threshold: number): boolean {
  switch (comparison) {
    case '>':
      return value > threshold;
    case '>=':
      return value >= threshold;
    case '<':
      return value < threshold;
    case '<=':
      return value <= threshold;
    case '=':
      return Math.abs(value - threshold) < 0.05;
  }
}
