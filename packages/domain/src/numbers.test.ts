import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOT_AVAILABLE } from './display-text';
import {
  FILE_SIZE_UNITS,
  formatCents,
  formatCompactCount,
  formatCurrency,
  formatFileSize,
  formatPercent,
} from './numbers';

const notFinite = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];

describe('formatCurrency', () => {
  it.each([
    [1234.5, '$1,234.50'],
    [0, '$0.00'],
    [0.1 + 0.2, '$0.30'],
    [1_000_000, '$1,000,000.00'],
    [-1, '-$1.00'],
    [-1234.567, '-$1,234.57'],
    [-0, '$0.00'],
    [-0.001, '$0.00'],
  ])('%d dollars → %s', (dollars, expected) => {
    expect(formatCurrency(dollars)).toBe(expected);
  });

  it.each(notFinite)('%d → N/A', (value) => {
    expect(formatCurrency(value)).toBe(NOT_AVAILABLE);
  });
});

describe('formatCents', () => {
  it.each([
    [123450, '$1,234.50'],
    [5, '$0.05'],
    [0, '$0.00'],
    [-100, '-$1.00'],
    [-5, '-$0.05'],
    [99_999_999_999, '$999,999,999.99'],
    [Number.MAX_SAFE_INTEGER, '$90,071,992,547,409.91'],
    [10.5, '$0.11'],
    [-0.4, '$0.00'],
  ])('%d cents → %s', (cents, expected) => {
    expect(formatCents(cents)).toBe(expected);
  });

  it.each(notFinite)('%d → N/A', (value) => {
    expect(formatCents(value)).toBe(NOT_AVAILABLE);
  });

  it('reads back to the same number of cents', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (cents) => {
        const text = formatCents(cents);
        expect(text).toMatch(/^-?\$\d{1,3}(,\d{3})*\.\d{2}$/);
        expect(BigInt(text.replace(/[$,.]/g, ''))).toBe(BigInt(cents));
      }),
    );
  });

  it('agrees with formatCurrency on amounts a float holds exactly to the cent', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => {
        expect(formatCents(cents)).toBe(formatCurrency(cents / 100));
      }),
    );
  });
});

describe('formatPercent', () => {
  it.each([
    [45, '45.00%'],
    [0, '0.00%'],
    [100, '100.00%'],
    [33.333, '33.33%'],
    [66.666, '66.67%'],
    [120, '120.00%'],
    [-2.5, '-2.50%'],
  ])('%d → %s (0–100 scale)', (value, expected) => {
    expect(formatPercent(value)).toBe(expected);
  });

  it.each(notFinite)('%d → N/A', (value) => {
    expect(formatPercent(value)).toBe(NOT_AVAILABLE);
  });

  it('always shows two decimals within 0–100', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100, noNaN: true }), (value) => {
        const text = formatPercent(value);
        expect(text).toMatch(/^\d{1,3}\.\d{2}%$/);
        expect(Math.abs(Number.parseFloat(text) - value)).toBeLessThanOrEqual(0.005 + 1e-9);
      }),
    );
  });
});

describe('formatFileSize', () => {
  it.each([
    [0, '0 B'],
    [1, '1 B'],
    [1023, '1023 B'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [10 * 1024 + 102, '10.1 KiB'],
    [1024 * 1024 - 1, '1 MiB'],
    [5 * 1024 ** 3, '5 GiB'],
    [2.25 * 1024 ** 4, '2.3 TiB'],
    [3 * 1024 ** 5, '3 PiB'],
    [2048 * 1024 ** 5, '2048 PiB'],
  ])('%d bytes → %s', (bytes, expected) => {
    expect(formatFileSize(bytes)).toBe(expected);
  });

  it.each([...notFinite, -1])('%d → N/A', (value) => {
    expect(formatFileSize(value)).toBe(NOT_AVAILABLE);
  });

  it('stays within 5% of the size, below 1024 of its unit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (bytes) => {
        const match = /^(\d+(?:\.\d)?) (\w+)$/.exec(formatFileSize(bytes));
        expect(match).not.toBeNull();
        const value = Number(match?.[1]);
        const unit = FILE_SIZE_UNITS.indexOf(match?.[2] as (typeof FILE_SIZE_UNITS)[number]);
        expect(unit).toBeGreaterThanOrEqual(0);
        if (unit < FILE_SIZE_UNITS.length - 1) expect(value).toBeLessThan(1024);
        if (unit > 0) expect(value).toBeGreaterThanOrEqual(1);
        expect(Math.abs(value * 1024 ** unit - bytes)).toBeLessThanOrEqual(0.05 * bytes);
      }),
    );
  });
});

describe('formatCompactCount', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1k'],
    [1049, '1k'],
    [1050, '1.1k'],
    [1234, '1.2k'],
    [1999, '2k'],
    [12_345, '12.3k'],
    [1_000_000, '1000k'],
    [-1234, '-1.2k'],
    [-999, '-999'],
    [999.4, '999'],
    [999.5, '1k'],
  ])('%d → %s', (count, expected) => {
    expect(formatCompactCount(count)).toBe(expected);
  });

  it.each(notFinite)('%d → N/A', (value) => {
    expect(formatCompactCount(value)).toBe(NOT_AVAILABLE);
  });

  it('shows counts up to 999 as they are', () => {
    fc.assert(
      fc.property(fc.integer({ min: -999, max: 999 }), (count) => {
        expect(formatCompactCount(count)).toBe(String(count));
      }),
    );
  });

  it('shows larger counts in thousands, one decimal at most, within 50 of the count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 1e12 }), fc.boolean(), (magnitude, negative) => {
        const count = negative ? -magnitude : magnitude;
        const text = formatCompactCount(count);
        expect(text).toMatch(/^-?\d+(\.[1-9])?k$/);
        // In whole tenths of thousands (parseFloat(text) * 1000 carries a float error at 10^12: 50.00003).
        const shown = Math.round(Number.parseFloat(text) * 10) * 100;
        expect(Math.abs(shown - count)).toBeLessThanOrEqual(50);
      }),
    );
  });
});
