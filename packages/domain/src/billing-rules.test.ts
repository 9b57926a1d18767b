import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BILLING_RULES,
  type BillingReading,
  type CodeRule,
  daysLeftInPeriod,
  deviceDays,
  deviceOutcome,
  minutesSeconds,
  PERIOD_DAYS,
  periodAt,
  periodOf,
  rpmOrRtm,
  rulesFor,
  setupCode,
  timeCodes,
} from './billing-rules';
import { dayNumber, isoDate, zonedInstant } from './zoned-time';

const R = BILLING_RULES[2026];
if (!R) throw new Error('no 2026 rules');
const NY = 'America/New_York';
const ZONES = [NY, 'UTC', 'Asia/Kathmandu', 'Australia/Adelaide', 'Pacific/Chatham', 'America/Los_Angeles'];
const at = (iso: string) => Date.parse(iso);
const isoDay = (n: number) => {
  const d = new Date(n * 86_400_000);
  return d.toISOString().slice(0, 10);
};
const dayOf = (iso: string) =>
  dayNumber({ year: Number(iso.slice(0, 4)), month: Number(iso.slice(5, 7)), day: Number(iso.slice(8, 10)) });
/** n consecutive dates from `start`. */
const dates = (start: string, n: number) => Array.from({ length: n }, (_, i) => isoDay(dayOf(start) + i));

describe('the 2026 table', () => {
  it('holds every code the issue names, once per track', () => {
    const codes = new Set(R.codes.map((c) => c.code));
    for (const c of [
      '99453',
      '99454',
      '99445',
      '99457',
      '99458',
      '99470',
      '99091',
      '98975',
      '98976',
      '98977',
      '98978',
      '98984',
      '98985',
      '98986',
      '98979',
      '98980',
      '98981',
      '99490',
      '99439',
      '99491',
      '99437',
      '99487',
      '99489',
    ])
      expect(codes, c).toContain(c);
  });

  it('is found for 2026 and carried forward, not backward', () => {
    expect(rulesFor(2026)?.year).toBe(2026);
    expect(rulesFor(2027)?.year).toBe(2026);
    expect(rulesFor(2025)).toBeNull();
  });

  it('has device ladders that do not overlap or leave a gap from their lowest to 30 days', () => {
    const tracks = new Set(R.codes.filter((c) => c.kind === 'device').map((c) => c.track));
    for (const track of tracks) {
      const ladder = R.codes
        .filter((c): c is Extract<CodeRule, { kind: 'device' }> => c.kind === 'device' && c.track === track)
        .sort((a, b) => a.minDays - b.minDays);
      expect(ladder[0]?.minDays, track).toBe(2);
      expect(ladder.at(-1)?.maxDays, track).toBe(30);
      for (let i = 1; i < ladder.length; i++)
        expect(ladder[i]?.minDays, track).toBe((ladder[i - 1]?.maxDays ?? 0) + 1);
    }
  });
});

describe('a table test per code', () => {
  const period = periodAt('2026-03-01', 0);
  const deviceRules = R.codes.filter((c): c is Extract<CodeRule, { kind: 'device' }> => c.kind === 'device');
  it.each(deviceRules.map((c) => [c.code, c] as const))(
    '%s: earned from its first to its last day count',
    (_, c) => {
      for (const n of [c.minDays, c.maxDays])
        expect(deviceOutcome(R, c.track, period, dates(period.start, n)).code).toBe(c.code);
      expect(deviceOutcome(R, c.track, period, dates(period.start, c.minDays - 1)).code).not.toBe(c.code);
    },
  );

  const timeRules = R.codes.filter((c): c is Extract<CodeRule, { kind: 'time' }> => c.kind === 'time');
  it.each(timeRules.map((c) => [c.code, c] as const))(
    '%s: from its first second, one second short earns it not',
    (_, c) => {
      const has = (s: number, i: boolean) => timeCodes(R, c.track, s, i).codes.some((x) => x.code === c.code);
      expect(has(c.minSeconds, true)).toBe(true);
      expect(has(c.minSeconds - 1, true)).toBe(false);
      if (c.maxSeconds !== null) {
        expect(has(c.maxSeconds, true)).toBe(true);
        expect(has(c.maxSeconds + 1, true)).toBe(false);
      }
      // Without an interactive contact: only the codes that do not ask for one.
      expect(has(c.minSeconds, false)).toBe(!c.interactive);
    },
  );

  const addOns = R.codes.filter((c): c is Extract<CodeRule, { kind: 'add-on' }> => c.kind === 'add-on');
  it.each(addOns.map((c) => [c.code, c] as const))(
    '%s: one unit per further full block after its base',
    (_, c) => {
      const base = R.codes.find((b) => b.code === c.base && b.kind === 'time');
      if (base?.kind !== 'time') throw new Error('no base');
      const units = (s: number) =>
        timeCodes(R, c.track, s, true).codes.find((x) => x.code === c.code)?.units ?? 0;
      expect(units(base.minSeconds + c.eachSeconds - 1)).toBe(0);
      expect(units(base.minSeconds + c.eachSeconds)).toBe(1);
      expect(units(base.minSeconds + 2 * c.eachSeconds)).toBe(2);
      expect(units(base.minSeconds + 5 * c.eachSeconds)).toBe(c.maxUnits ?? 5);
    },
  );

  it.each(['99453', '98975'])('%s: once, on the first period with two device days', (code) => {
    const track = code === '99453' ? 'rpm' : 'rtm-musculoskeletal';
    const first = deviceOutcome(R, track, period, dates(period.start, 2));
    expect(setupCode(R, track, first)).toBe(code);
    expect(setupCode(R, track, deviceOutcome(R, track, period, dates(period.start, 1)))).toBeNull();
    const second = periodAt('2026-03-01', 1);
    expect(setupCode(R, track, deviceOutcome(R, track, second, dates(second.start, 30)))).toBeNull();
  });
});

describe('RPM time (the issue’s worked figures)', () => {
  const codes = (s: number, i = true) => timeCodes(R, 'rpm-management', s, i).codes;
  it('599 s nothing, 600-1,199 s 99470, 1,200 s 99457, 2,400 s one 99458, 3,600 s two', () => {
    expect(codes(599)).toEqual([]);
    expect(codes(600)).toEqual([{ code: '99470', units: 1 }]);
    expect(codes(1199)).toEqual([{ code: '99470', units: 1 }]);
    expect(codes(1200)).toEqual([{ code: '99457', units: 1 }]);
    expect(codes(2399)).toEqual([{ code: '99457', units: 1 }]);
    expect(codes(2400)).toEqual([
      { code: '99457', units: 1 },
      { code: '99458', units: 1 },
    ]);
    expect(codes(3600)).toEqual([
      { code: '99457', units: 1 },
      { code: '99458', units: 2 },
    ]);
  });

  it('earns no time code without an interactive contact, and says that is what is missing', () => {
    expect(codes(5000, false)).toEqual([]);
    expect(timeCodes(R, 'rpm-management', 1199, false).next).toEqual({
      code: '99470',
      secondsNeeded: 0,
      needsInteractive: true,
    });
    expect(timeCodes(R, 'rpm-management', 300, false).next).toEqual({
      code: '99470',
      secondsNeeded: 300,
      needsInteractive: true,
    });
  });

  it('says what the next code needs', () => {
    expect(timeCodes(R, 'rpm-management', 1199, true).next).toEqual({
      code: '99457',
      secondsNeeded: 1,
      needsInteractive: false,
    });
    expect(timeCodes(R, 'rpm-management', 2000, true).next).toEqual({
      code: '99458',
      secondsNeeded: 400,
      needsInteractive: false,
    });
    // CCM 99439 stops at two: nothing further to earn.
    expect(timeCodes(R, 'ccm', 3600, false).next).toBeNull();
  });

  it('property: the earned units never fall as seconds grow, and match the closed form', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 5000 }), (s, extra) => {
        const units = (x: number) => codes(x).reduce((n, c) => n + c.units, 0);
        expect(units(s + extra)).toBeGreaterThanOrEqual(units(s));
        const expected = s < 600 ? 0 : s < 1200 ? 1 : 1 + Math.floor((s - 1200) / 1200);
        expect(units(s)).toBe(expected);
        // The next code's seconds, once recorded, earn it.
        const next = timeCodes(R, 'rpm-management', s, true).next;
        if (next) expect(codes(s + next.secondsNeeded).some((c) => c.code === next.code)).toBe(true);
      }),
    );
  });
});

describe('device days', () => {
  it('counts local dates in the patient’s zone, device readings only, several on a date once', () => {
    const readings: BillingReading[] = [
      { at: at('2026-03-02T03:30:00Z'), origin: 'device' }, // 1 March 22:30 in New York
      { at: at('2026-03-02T15:00:00Z'), origin: 'device' },
      { at: at('2026-03-02T16:00:00Z'), origin: 'device' },
      { at: at('2026-03-05T15:00:00Z'), origin: 'manual' },
      { at: at('2026-03-06T15:00:00Z'), origin: 'self_reported' },
    ];
    expect(deviceDays(readings, NY)).toEqual(['2026-03-01', '2026-03-02']);
    expect(deviceDays(readings, 'UTC')).toEqual(['2026-03-02']);
  });

  const reading = fc.record({
    at: fc.integer({ min: at('2025-12-01T00:00:00Z'), max: at('2027-01-31T00:00:00Z') }),
    origin: fc.constantFrom('device' as const, 'manual' as const, 'self_reported' as const),
  });

  it('property: manual and self-reported readings never change the count; repeats count once', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.array(reading, { maxLength: 60 }), (zone, rs) => {
        const deviceOnly = rs.filter((r) => r.origin === 'device');
        expect(deviceDays(rs, zone)).toEqual(deviceDays(deviceOnly, zone));
        expect(deviceDays([...rs, ...rs], zone)).toEqual(deviceDays(rs, zone));
        expect(new Set(deviceDays(rs, zone)).size).toBe(deviceDays(rs, zone).length);
      }),
    );
  });

  it('property: a reading at any local time of a date counts for that date, DST months included', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.constantFrom(3, 4, 10, 11), // the DST changes of both hemispheres
        fc.integer({ min: 1, max: 28 }),
        fc.integer({ min: 0, max: 1439 }),
        (zone, month, day, minute) => {
          const date = { year: 2026, month, day };
          const t = zonedInstant(date, minute, zone);
          expect(deviceDays([{ at: t, origin: 'device' }], zone)).toEqual([isoDate(date)]);
        },
      ),
    );
  });

  it('property: one device reading a day at noon through a DST month is one device day per date', () => {
    for (const zone of [NY, 'Australia/Adelaide'])
      for (const [month, length] of [
        [3, 31],
        [11, 30],
        [10, 31],
        [4, 30],
      ] as const) {
        const rs = Array.from({ length }, (_, i) => ({
          at: zonedInstant({ year: 2026, month, day: i + 1 }, 12 * 60, zone),
          origin: 'device' as const,
        }));
        expect(deviceDays(rs, zone)).toHaveLength(length);
      }
  });
});

describe('30-day periods from the supply start', () => {
  it('day 30 closes the first period, day 31 opens the second', () => {
    expect(periodOf('2026-01-20', '2026-01-20')).toEqual({
      index: 0,
      start: '2026-01-20',
      end: '2026-02-18',
    });
    expect(periodOf('2026-01-20', '2026-02-18')?.index).toBe(0);
    expect(periodOf('2026-01-20', '2026-02-19')).toEqual({
      index: 1,
      start: '2026-02-19',
      end: '2026-03-20',
    });
    expect(periodOf('2026-01-20', '2026-01-19')).toBeNull();
    expect(daysLeftInPeriod(periodAt('2026-01-20', 0), '2026-02-18')).toBe(1);
  });

  it('property: periods are 30 days, contiguous, and hold the date asked about', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: dayOf('2025-01-01'), max: dayOf('2027-12-31') }),
        fc.integer({ min: 0, max: 800 }),
        (startDay, offset) => {
          const start = isoDay(startDay);
          const date = isoDay(startDay + offset);
          const p = periodOf(start, date);
          if (!p) throw new Error('no period');
          expect(p.start <= date && date <= p.end).toBe(true);
          expect(dayOf(p.end) - dayOf(p.start) + 1).toBe(PERIOD_DAYS);
          expect(p.index).toBe(Math.floor(offset / PERIOD_DAYS));
          expect(dayOf(periodAt(start, p.index + 1).start)).toBe(dayOf(p.end) + 1);
          expect(daysLeftInPeriod(p, date)).toBe(PERIOD_DAYS - (offset % PERIOD_DAYS));
        },
      ),
    );
  });

  it('property: the device code follows the number of distinct device days inside the period only', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: -20, max: 50 }), { maxLength: 60 }), (offsets) => {
        const period = periodAt('2026-02-10', 0);
        const days = offsets.map((o) => isoDay(dayOf(period.start) + o));
        const inside = offsets.filter((o) => o >= 0 && o < PERIOD_DAYS).length;
        const out = deviceOutcome(R, 'rpm', period, days);
        expect(out.dates).toHaveLength(inside);
        expect(out.code).toBe(inside >= 16 ? '99454' : inside >= 2 ? '99445' : null);
        expect(out.next).toEqual(
          inside >= 16
            ? null
            : inside >= 2
              ? { code: '99454', daysNeeded: 16 - inside }
              : { code: '99445', daysNeeded: 2 - inside },
        );
      }),
    );
  });
});

describe('RPM or RTM in one month', () => {
  it('keeps one family and names the other', () => {
    expect(rpmOrRtm({ family: 'rpm', units: 0 }, { family: 'rtm', units: 0 })).toEqual({
      kept: null,
      excluded: null,
    });
    expect(rpmOrRtm({ family: 'rpm', units: 2 }, { family: 'rtm', units: 0 })).toEqual({
      kept: 'rpm',
      excluded: null,
    });
    expect(rpmOrRtm({ family: 'rpm', units: 1 }, { family: 'rtm', units: 3 })).toEqual({
      kept: 'rtm',
      excluded: 'rpm',
    });
    expect(rpmOrRtm({ family: 'rpm', units: 2 }, { family: 'rtm', units: 2 })).toEqual({
      kept: 'rpm',
      excluded: 'rtm',
    });
  });

  it('property: never both', () => {
    fc.assert(
      fc.property(fc.nat(10), fc.nat(10), (a, b) => {
        const r = rpmOrRtm({ family: 'rpm', units: a }, { family: 'rtm', units: b });
        expect(r.kept === null || r.kept !== r.excluded).toBe(true);
        if (a > 0 && b > 0) expect(r.excluded).not.toBeNull();
      }),
    );
  });
});

describe('minutes and seconds', () => {
  it('never rounds across a threshold', () => {
    expect(minutesSeconds(1199)).toBe('19:59');
    expect(minutesSeconds(1200)).toBe('20:00');
    expect(minutesSeconds(599.9)).toBe('9:59');
    expect(minutesSeconds(0)).toBe('0:00');
  });
  it('property: the minutes shown reach a threshold only when the seconds do', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (s) => {
        const minutes = Number(minutesSeconds(s).split(':')[0]);
        expect(minutes * 60 <= s && s < (minutes + 1) * 60).toBe(true);
      }),
    );
  });
});
