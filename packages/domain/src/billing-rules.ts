// Billing code rules as data: one table per year (docs/billing.md, ADR 071). Next year's codes are a new
// entry of BILLING_RULES, not new code. The functions below are pure: they take the year's rules and the
// facts (reading instants and origins, seconds of time, interactive contacts) and say which codes are
// earned, with the evidence, and what is missing for the next code.
import { dateOfDayNumber, dayNumber, isoDate, localDateOf } from './zoned-time';

export type BillingFamily = 'rpm' | 'rtm' | 'ccm';

/** A device-supply track: the codes of one family and device category that share one 30-day count. */
export type DeviceTrack = 'rpm' | 'rtm-respiratory' | 'rtm-musculoskeletal' | 'rtm-cbt';
/** A time track: the seconds that add up together towards one code ladder. */
export type TimeTrack =
  | 'rpm-management'
  | 'rpm-physician-data'
  | 'rtm-management'
  | 'ccm'
  | 'ccm-physician'
  | 'ccm-complex';

export type CodeRule =
  /** Set-up and education, once per episode of care, on the supply-start date; needs `minDays` in the first period. */
  | {
      kind: 'setup';
      code: string;
      family: BillingFamily;
      track: DeviceTrack;
      minDays: number;
      verified: boolean;
    }
  /** Device supply: `minDays`..`maxDays` device days in one 30-day period from the supply start. */
  | {
      kind: 'device';
      code: string;
      family: BillingFamily;
      track: DeviceTrack;
      minDays: number;
      maxDays: number;
      verified: boolean;
    }
  /** A first time code: `minSeconds`..`maxSeconds` (null: no upper bound) in the month. */
  | {
      kind: 'time';
      code: string;
      family: BillingFamily;
      track: TimeTrack;
      minSeconds: number;
      maxSeconds: number | null;
      interactive: boolean;
      verified: boolean;
    }
  /** An add-on: one unit per further full `eachSeconds` beyond `base`'s `minSeconds`, at most `maxUnits`. */
  | {
      kind: 'add-on';
      code: string;
      family: BillingFamily;
      track: TimeTrack;
      base: string;
      eachSeconds: number;
      maxUnits: number | null;
      verified: boolean;
    };

export type BillingYearRules = { year: number; codes: readonly CodeRule[] };

const MIN = 60;

/**
 * The versioned table. 2026: CMS CY2026 PFS final rule and AMA CPT 2026 (sources and what could not be
 * verified: docs/billing.md). `verified: false` marks a figure no source at hand confirmed.
 */
export const BILLING_RULES: Readonly<Record<number, BillingYearRules>> = {
  2026: {
    year: 2026,
    codes: [
      // RPM
      { kind: 'setup', code: '99453', family: 'rpm', track: 'rpm', minDays: 2, verified: false },
      { kind: 'device', code: '99445', family: 'rpm', track: 'rpm', minDays: 2, maxDays: 15, verified: true },
      {
        kind: 'device',
        code: '99454',
        family: 'rpm',
        track: 'rpm',
        minDays: 16,
        maxDays: 30,
        verified: true,
      },
      tier('99470', 'rpm', 'rpm-management', 10 * MIN, 20 * MIN - 1, true),
      tier('99457', 'rpm', 'rpm-management', 20 * MIN, null, true),
      addOn('99458', 'rpm', 'rpm-management', '99457', 20 * MIN, null),
      tier('99091', 'rpm', 'rpm-physician-data', 30 * MIN, null, false),
      // RTM
      { kind: 'setup', code: '98975', family: 'rtm', track: 'rtm-respiratory', minDays: 2, verified: false },
      {
        kind: 'setup',
        code: '98975',
        family: 'rtm',
        track: 'rtm-musculoskeletal',
        minDays: 2,
        verified: false,
      },
      { kind: 'setup', code: '98975', family: 'rtm', track: 'rtm-cbt', minDays: 2, verified: false },
      device('98984', 'rtm-respiratory', 2, 15),
      device('98976', 'rtm-respiratory', 16, 30),
      device('98985', 'rtm-musculoskeletal', 2, 15),
      device('98977', 'rtm-musculoskeletal', 16, 30),
      device('98986', 'rtm-cbt', 2, 15),
      device('98978', 'rtm-cbt', 16, 30),
      tier('98979', 'rtm', 'rtm-management', 10 * MIN, 20 * MIN - 1, true),
      tier('98980', 'rtm', 'rtm-management', 20 * MIN, null, true),
      addOn('98981', 'rtm', 'rtm-management', '98980', 20 * MIN, null),
      // CCM
      tier('99490', 'ccm', 'ccm', 20 * MIN, null, false),
      addOn('99439', 'ccm', 'ccm', '99490', 20 * MIN, 2),
      tier('99491', 'ccm', 'ccm-physician', 30 * MIN, null, false),
      addOn('99437', 'ccm', 'ccm-physician', '99491', 30 * MIN, null),
      tier('99487', 'ccm', 'ccm-complex', 60 * MIN, null, false),
      addOn('99489', 'ccm', 'ccm-complex', '99487', 30 * MIN, null),
    ],
  },
};

function tier(
  code: string,
  family: BillingFamily,
  track: TimeTrack,
  minSeconds: number,
  maxSeconds: number | null,
  interactive: boolean,
): CodeRule {
  return { kind: 'time', code, family, track, minSeconds, maxSeconds, interactive, verified: true };
}
function addOn(
  code: string,
  family: BillingFamily,
  track: TimeTrack,
  base: string,
  eachSeconds: number,
  maxUnits: number | null,
): CodeRule {
  return { kind: 'add-on', code, family, track, base, eachSeconds, maxUnits, verified: true };
}
function device(code: string, track: DeviceTrack, minDays: number, maxDays: number): CodeRule {
  // The 16-30 RTM codes are long-standing; the three 2-15 codes are new in CPT 2026.
  return { kind: 'device', code, family: 'rtm', track, minDays, maxDays, verified: true };
}

/** The rules in force in `year`: its own table, else the latest earlier one (null before the first). */
export function rulesFor(year: number): BillingYearRules | null {
  const years = Object.keys(BILLING_RULES)
    .map(Number)
    .filter((y) => y <= year)
    .sort((a, b) => b - a);
  return years.length > 0 ? (BILLING_RULES[years[0] as number] ?? null) : null;
}

// ---- Device days -------------------------------------------------------------------------------------------

/** How a reading reached us: only `device` (transmitted by the device itself) counts for billing. */
export type ReadingOrigin = 'device' | 'manual' | 'self_reported';
export type BillingReading = { at: number; origin: ReadingOrigin };

/** The device days: sorted distinct local dates (YYYY-MM-DD in `zone`) with a device-transmitted reading. */
export function deviceDays(readings: readonly BillingReading[], zone: string): string[] {
  const days = new Set<string>();
  for (const r of readings) if (r.origin === 'device') days.add(isoDate(localDateOf(r.at, zone)));
  return [...days].sort();
}

// ---- 30-day periods ----------------------------------------------------------------------------------------

export const PERIOD_DAYS = 30;
export type DevicePeriod = { index: number; start: string; end: string };

const dayOf = (iso: string) =>
  dayNumber({ year: Number(iso.slice(0, 4)), month: Number(iso.slice(5, 7)), day: Number(iso.slice(8, 10)) });
const isoOf = (n: number) => isoDate(dateOfDayNumber(n));

/** The 30-day period (0-based) holding `date`, counted from the supply-start date; null before it. */
export function periodOf(supplyStart: string, date: string): DevicePeriod | null {
  const offset = dayOf(date) - dayOf(supplyStart);
  if (offset < 0) return null;
  return periodAt(supplyStart, Math.floor(offset / PERIOD_DAYS));
}

export function periodAt(supplyStart: string, index: number): DevicePeriod {
  const first = dayOf(supplyStart) + index * PERIOD_DAYS;
  return { index, start: isoOf(first), end: isoOf(first + PERIOD_DAYS - 1) };
}

/** Days from `date` to the period's end, both included (1 on the last day). */
export function daysLeftInPeriod(period: DevicePeriod, date: string): number {
  return dayOf(period.end) - dayOf(date) + 1;
}

// ---- Device codes ------------------------------------------------------------------------------------------

export type DeviceOutcome = {
  period: DevicePeriod;
  /** The device days inside the period: the evidence. */
  dates: string[];
  code: string | null;
  /** The next higher code and the device days still needed for it (null at the top). */
  next: { code: string; daysNeeded: number } | null;
};

/** The device-supply code of one period from its device days (dates outside the period are ignored). */
export function deviceOutcome(
  rules: BillingYearRules,
  track: DeviceTrack,
  period: DevicePeriod,
  days: readonly string[],
): DeviceOutcome {
  const dates = days.filter((d) => d >= period.start && d <= period.end);
  const ladder = rules.codes
    .filter((c): c is Extract<CodeRule, { kind: 'device' }> => c.kind === 'device' && c.track === track)
    .sort((a, b) => a.minDays - b.minDays);
  const n = dates.length;
  const earned = ladder.find((c) => n >= c.minDays && n <= c.maxDays) ?? null;
  const higher = ladder.find((c) => c.minDays > n) ?? null;
  return {
    period,
    dates,
    code: earned?.code ?? null,
    next: higher ? { code: higher.code, daysNeeded: higher.minDays - n } : null,
  };
}

/** The set-up code, once per episode: earned by the first period when it has the set-up rule's days. */
export function setupCode(rules: BillingYearRules, track: DeviceTrack, first: DeviceOutcome): string | null {
  if (first.period.index !== 0) return null;
  const rule = rules.codes.find((c) => c.kind === 'setup' && c.track === track);
  return rule && rule.kind === 'setup' && first.dates.length >= rule.minDays ? rule.code : null;
}

// ---- Time codes --------------------------------------------------------------------------------------------

export type TimeOutcome = {
  seconds: number;
  interactive: boolean;
  codes: { code: string; units: number }[];
  /** What the next code needs: seconds still to record, and whether an interactive contact is missing. */
  next: { code: string; secondsNeeded: number; needsInteractive: boolean } | null;
};

/** The time codes of one track for a month's seconds, and the interactive flag where the codes need it. */
export function timeCodes(
  rules: BillingYearRules,
  track: TimeTrack,
  seconds: number,
  interactive: boolean,
): TimeOutcome {
  const tiers = rules.codes
    .filter((c): c is Extract<CodeRule, { kind: 'time' }> => c.kind === 'time' && c.track === track)
    .sort((a, b) => a.minSeconds - b.minSeconds);
  const addOnRule = rules.codes.find(
    (c): c is Extract<CodeRule, { kind: 'add-on' }> => c.kind === 'add-on' && c.track === track,
  );
  const s = Math.max(0, Math.floor(seconds));
  const needsInteractive = tiers.some((t) => t.interactive) && !interactive;
  const codes: { code: string; units: number }[] = [];
  const tierRule = needsInteractive
    ? null
    : (tiers.find((t) => s >= t.minSeconds && (t.maxSeconds === null || s <= t.maxSeconds)) ?? null);
  if (tierRule) codes.push({ code: tierRule.code, units: 1 });
  let next: TimeOutcome['next'] = null;
  if (!tierRule) {
    // Nothing earned: either only the interactive contact is missing, or seconds for the first tier.
    const reachable = [...tiers].reverse().find((t) => s >= t.minSeconds);
    const first = tiers[0];
    if (reachable) next = { code: reachable.code, secondsNeeded: 0, needsInteractive: true };
    else if (first) next = { code: first.code, secondsNeeded: first.minSeconds - s, needsInteractive };
  } else if (addOnRule && tierRule.code === addOnRule.base) {
    const full = Math.floor((s - tierRule.minSeconds) / addOnRule.eachSeconds);
    const units = addOnRule.maxUnits === null ? full : Math.min(full, addOnRule.maxUnits);
    if (units > 0) codes.push({ code: addOnRule.code, units });
    if (addOnRule.maxUnits === null || units < addOnRule.maxUnits)
      next = {
        code: addOnRule.code,
        secondsNeeded: tierRule.minSeconds + (units + 1) * addOnRule.eachSeconds - s,
        needsInteractive: false,
      };
  } else {
    const higher = tiers.find((t) => t.minSeconds > s);
    if (higher) next = { code: higher.code, secondsNeeded: higher.minSeconds - s, needsInteractive: false };
  }
  return { seconds: s, interactive, codes, next };
}

// ---- RPM or RTM in a month ---------------------------------------------------------------------------------

export type FamilyMonth = { family: 'rpm' | 'rtm'; units: number };

/**
 * RPM and RTM are not billed for one patient in one month: the family earning more units is kept (RPM on a
 * tie); the other is returned as `excluded`, so a screen can say why it is not billed rather than hide it.
 */
export function rpmOrRtm(
  rpm: FamilyMonth,
  rtm: FamilyMonth,
): { kept: 'rpm' | 'rtm' | null; excluded: 'rpm' | 'rtm' | null } {
  if (rpm.units === 0 && rtm.units === 0) return { kept: null, excluded: null };
  if (rtm.units === 0) return { kept: 'rpm', excluded: null };
  if (rpm.units === 0) return { kept: 'rtm', excluded: null };
  return rtm.units > rpm.units ? { kept: 'rtm', excluded: 'rpm' } : { kept: 'rpm', excluded: 'rtm' };
}

// ---- Display -----------------------------------------------------------------------------------------------

/** Seconds as minutes:seconds, truncated (1,199 s is "19:59", never "20"): a screen never rounds across a threshold. */
export function minutesSeconds(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
