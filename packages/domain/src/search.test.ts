import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { graphemeLength } from './graphemes';
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_LENGTH, searchValueToEmit, shouldEmitSearch } from './search';

describe('search box rule', () => {
  it('debounces for 300 ms and needs more than one character', () => {
    expect(SEARCH_DEBOUNCE_MS).toBe(300);
    expect(SEARCH_MIN_LENGTH).toBe(2);
  });

  it('emits text of two or more characters that changed', () => {
    expect(shouldEmitSearch('jo', '')).toBe(true);
    expect(searchValueToEmit('john', 'jo')).toBe('john');
  });

  it('stays silent for a single character', () => {
    expect(shouldEmitSearch('j', '')).toBe(false);
    expect(shouldEmitSearch(' j ', 'john')).toBe(false);
    expect(shouldEmitSearch('é', '')).toBe(false);
    expect(shouldEmitSearch('👍🏽', '')).toBe(false);
  });

  it('emits the empty text when the search is cleared', () => {
    expect(searchValueToEmit('', 'john')).toBe('');
    expect(searchValueToEmit('   ', 'john')).toBe('');
  });

  it('stays silent when the value did not change, ignoring surrounding whitespace', () => {
    expect(shouldEmitSearch('john', 'john')).toBe(false);
    expect(shouldEmitSearch('john ', 'john')).toBe(false);
    expect(shouldEmitSearch('', '')).toBe(false);
  });

  it('emits the trimmed text', () => {
    expect(searchValueToEmit('  jo  ', '')).toBe('jo');
    expect(searchValueToEmit('mary ann', '')).toBe('mary ann');
  });

  it('emits only trimmed values that are empty or longer than one character and differ from the last', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 6 }),
        fc.string({ maxLength: 6 }),
        (next, last) => {
          const emitted = searchValueToEmit(next, last);
          expect(shouldEmitSearch(next, last)).toBe(emitted !== null);
          if (emitted === null) return;
          expect(emitted).toBe(next.trim());
          expect(emitted === '' || graphemeLength(emitted) > 1).toBe(true);
          expect(emitted).not.toBe(last.trim());
          // Emitting the same value again is a no-op.
          expect(searchValueToEmit(next, emitted)).toBeNull();
        },
      ),
    );
  });
});
