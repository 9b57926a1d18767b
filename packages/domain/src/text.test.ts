import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ELLIPSIS } from './display-text';
import { graphemeLength } from './graphemes';
import { EXCERPT_DEFAULT_LENGTH, excerpt, TRUNCATE_DEFAULT_LENGTH, truncate } from './text';

describe('truncate', () => {
  it('defaults to 20 characters including the ellipsis', () => {
    expect(TRUNCATE_DEFAULT_LENGTH).toBe(20);
    // The space before the cut is dropped rather than shown before the ellipsis.
    expect(truncate('Metformin 500 mg extended release')).toBe('Metformin 500 mg...');
    expect(truncate('abcdefghijklmnopqrstuvwxyz')).toBe('abcdefghijklmnopq...');
  });

  it('leaves text that fits unchanged', () => {
    expect(truncate('exactly twenty chars')).toBe('exactly twenty chars');
    expect(truncate('short')).toBe('short');
    expect(truncate('')).toBe('');
  });

  it('treats null and undefined as empty text', () => {
    expect(truncate(null)).toBe('');
    expect(truncate(undefined)).toBe('');
  });

  it('takes a custom length and cuts without the ellipsis when there is no room for it', () => {
    expect(truncate('abcdefgh', 6)).toBe('abc...');
    expect(truncate('abcdefgh', 3)).toBe('abc');
    expect(truncate('abcdefgh', 0)).toBe('');
    expect(truncate('abcdefgh', -4)).toBe('');
    expect(truncate('abcdefgh', 5.9)).toBe('ab...');
  });

  it('never splits an emoji or an accented letter', () => {
    expect(truncate('👍🏽👍🏽👍🏽👍🏽👍🏽', 4)).toBe('👍🏽...');
    expect(truncate('e\u0301e\u0301e\u0301e\u0301e\u0301', 4)).toBe('e\u0301...');
  });
});

describe('excerpt', () => {
  it('defaults to 30 characters and cuts at a word boundary', () => {
    expect(EXCERPT_DEFAULT_LENGTH).toBe(30);
    const text = 'Patient reports dizziness after the evening dose of lisinopril';
    expect(excerpt(text)).toBe('Patient reports dizziness...');
    expect(graphemeLength(excerpt(text))).toBeLessThanOrEqual(30);
  });

  it('keeps a word that ends exactly at the cut', () => {
    expect(excerpt('one two three four', 10)).toBe('one two...');
    expect(excerpt('abcd efgh ijkl', 12)).toBe('abcd efgh...');
  });

  it('cuts inside a word that is longer than the limit', () => {
    expect(excerpt('Pneumonoultramicroscopicsilicovolcanoconiosis', 12)).toBe('Pneumonou...');
  });

  it('leaves text that fits unchanged', () => {
    expect(excerpt('Short note')).toBe('Short note');
    expect(excerpt(null)).toBe('');
  });
});

const textArbitrary = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.lorem({ maxCount: 20 }));

describe.each([
  ['truncate', truncate],
  ['excerpt', excerpt],
] as const)('%s properties', (_name, shorten) => {
  it('never exceeds the limit, and only shortens text that does not fit', () => {
    fc.assert(
      fc.property(textArbitrary, fc.integer({ min: 0, max: 60 }), (text, limit) => {
        const result = shorten(text, limit);
        expect(graphemeLength(result)).toBeLessThanOrEqual(limit);
        if (graphemeLength(text) <= limit) expect(result).toBe(text);
      }),
    );
  });

  it('keeps a prefix of the text and marks the cut with the ellipsis', () => {
    fc.assert(
      fc.property(textArbitrary, fc.integer({ min: 4, max: 60 }), (text, limit) => {
        const result = shorten(text, limit);
        if (result === text) return;
        expect(result.endsWith(ELLIPSIS)).toBe(true);
        expect(text.startsWith(result.slice(0, -ELLIPSIS.length))).toBe(true);
      }),
    );
  });
});
