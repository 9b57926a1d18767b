import { NOT_AVAILABLE } from './display-text';

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: 'negative',
});

const twoDecimals = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: 'negative',
});

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Rounds half away from zero, so positive and negative values round alike; never returns -0. */
function roundToInteger(value: number): number {
  const rounded = Math.sign(value) * Math.round(Math.abs(value));
  return rounded === 0 ? 0 : rounded;
}

/** Dollars as '$1,234.50'; negatives '-$1.00'; an amount that rounds to zero is '$0.00'. Not finite: 'N/A'. */
export function formatCurrency(dollars: number): string {
  return Number.isFinite(dollars) ? usd.format(dollars) : NOT_AVAILABLE;
}

/**
 * Integer cents (the storage unit, DESIGN §5) as '$1,234.50'. Exact for every integer, unlike going
 * through dollars as a float. A fractional input is rounded to the nearest cent first.
 */
export function formatCents(cents: number): string {
  if (!Number.isFinite(cents)) return NOT_AVAILABLE;
  const whole = roundToInteger(cents);
  const magnitude = BigInt(Math.abs(whole));
  const dollars = groupThousands((magnitude / 100n).toString());
  const rest = (magnitude % 100n).toString().padStart(2, '0');
  return `${whole < 0 ? '-' : ''}$${dollars}.${rest}`;
}

/**
 * A percentage given on the 0–100 scale (as adherence is), with two decimals: 45 → '45.00%'.
 * Values outside 0–100 are shown as they are, not clamped. Not finite: 'N/A'.
 */
export function formatPercent(percent: number): string {
  return Number.isFinite(percent) ? `${twoDecimals.format(percent)}%` : NOT_AVAILABLE;
}

export const FILE_SIZE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

function roundToTenth(value: number): number {
  return Math.round(value * 10) / 10;
}

/**
 * Bytes in binary IEC units (1 KiB = 1024 B): '512 B', '1.5 KiB', '1 MiB'. One decimal, a trailing '.0'
 * dropped; a value that would round to 1024 moves up a unit. Negative or not finite: 'N/A'.
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return NOT_AVAILABLE;
  let value = Math.round(bytes);
  if (value < 1024) return `${value} B`;
  let unit = 0;
  while (unit < FILE_SIZE_UNITS.length - 1 && (unit === 0 ? value : roundToTenth(value)) >= 1024) {
    value /= 1024;
    unit += 1;
  }
  return `${roundToTenth(value).toString()} ${FILE_SIZE_UNITS[unit]}`;
}

/**
 * A count for badges and tiles: up to 999 as is, above that in thousands with one decimal and 'k'
 * ('1.2k'; '1k' rather than '1.0k'). Thousands only, as the spec says: a million is '1000k'.
 * Rounds to the nearest tenth, half away from zero. Not finite: 'N/A'.
 */
export function formatCompactCount(count: number): string {
  if (!Number.isFinite(count)) return NOT_AVAILABLE;
  const whole = roundToInteger(count);
  const magnitude = Math.abs(whole);
  if (magnitude <= 999) return String(whole);
  const tenthsOfThousands = Math.round(magnitude / 100);
  return `${whole < 0 ? '-' : ''}${(tenthsOfThousands / 10).toString()}k`;
}
