/**
 * Wall-clock time in an IANA zone ↔ instants, without a date library: the runtime's Intl data decides
 * offsets, and the two DST rules of docs/adherence.md are applied explicitly:
 * - a wall-clock time that does not exist (spring forward) moves forward by the gap;
 * - an ambiguous one (fall back) is its first occurrence.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall-clock fields of an instant in a zone. */
export type WallClock = { year: number; month: number; day: number; hour: number; minute: number };

function intlWallClock(instant: number, zone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(instant)))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour! % 24,
    minute: parts.minute!,
  };
}

function intlZoneOffset(instant: number, zone: string): number {
  const w = intlWallClock(instant, zone);
  const seconds = new Date(instant).getUTCSeconds();
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, seconds);
  return asUtc - (instant - (instant % 1000));
}

/**
 * Offsets by zone and UTC hour, read from Intl once: asking Intl costs about 10 µs, and the engine asks
 * several times per expected dose. An hour is cached only when the offset is the same at its first and
 * last second and a whole number of minutes (every zone since the 1970s): then every instant of the hour
 * has exactly that offset, so the answers are the ones Intl gives. Hours with a transition inside, and
 * instants before 1970, are asked of Intl each time.
 */
const offsetCache = new Map<string, Map<number, number>>();
const CACHED_HOURS_PER_ZONE = 200_000;

function cachedOffset(instant: number, zone: string): number | null {
  if (instant < 0) return null;
  const hour = Math.floor(instant / HOUR);
  let byHour = offsetCache.get(zone);
  if (!byHour) {
    byHour = new Map();
    offsetCache.set(zone, byHour);
  }
  let offset = byHour.get(hour);
  if (offset === undefined) {
    if (byHour.size >= CACHED_HOURS_PER_ZONE) byHour.clear();
    const first = intlZoneOffset(hour * HOUR, zone);
    const last = intlZoneOffset(hour * HOUR + HOUR - 1000, zone);
    offset = first === last && first % MINUTE === 0 ? first : Number.NaN;
    byHour.set(hour, offset);
  }
  return Number.isNaN(offset) ? null : offset;
}

export function wallClock(instant: number, zone: string): WallClock {
  const offset = cachedOffset(instant, zone);
  if (offset === null) return intlWallClock(instant, zone);
  const local = new Date(instant + offset);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
  };
}

/** The zone's offset from UTC at an instant, in milliseconds (New York in winter: −5 h). */
export function zoneOffset(instant: number, zone: string): number {
  return cachedOffset(instant, zone) ?? intlZoneOffset(instant, zone);
}

/** The instant of a wall-clock date and time in a zone, by the two DST rules above. */
export function zonedInstant(date: LocalDate, minuteOfDay: number, zone: string): number {
  const local = Date.UTC(date.year, date.month - 1, date.day) + minuteOfDay * MINUTE;
  // The offsets on either side of any transition near this time (zones change at most once a day).
  const before = zoneOffset(local - 14 * HOUR, zone);
  const after = zoneOffset(local + 14 * HOUR, zone);
  const candidates = [local - before, local - after].filter((t) => zoneOffset(t, zone) === local - t);
  // Ambiguous: the earlier; none (a gap): the pre-transition offset, which lands after the gap.
  return candidates.length > 0 ? Math.min(...candidates) : local - before;
}

/** A calendar date (no time, no zone). */
export type LocalDate = { year: number; month: number; day: number };

export function localDateOf(instant: number, zone: string): LocalDate {
  const w = wallClock(instant, zone);
  return { year: w.year, month: w.month, day: w.day };
}

/** Days since 1970-01-01 of a calendar date (for day arithmetic without zones). */
export function dayNumber(d: LocalDate): number {
  return Math.floor(Date.UTC(d.year, d.month - 1, d.day) / (24 * HOUR));
}

export function dateOfDayNumber(n: number): LocalDate {
  const t = new Date(n * 24 * HOUR);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

export function isoDate(d: LocalDate): string {
  return `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}
