import { graphemeLength } from './graphemes';

/** A search box waits this long after the last keystroke before emitting (01 §5, §9). */
export const SEARCH_DEBOUNCE_MS = 300;
/** Shortest non-empty search text worth sending: 'longer than 1 character'. */
export const SEARCH_MIN_LENGTH = 2;

/** Surrounding whitespace is not part of a search: '  jo ' searches for 'jo'. */
export function normalizeSearchText(text: string): string {
  return text.trim();
}

/**
 * The value a search box should emit once the debounce has elapsed, or null to stay silent: the trimmed
 * text when it is empty (clearing the search) or at least two characters long, and differs from the
 * last emitted value. A box's initial value counts as emitted, so mounting does not fire a search.
 */
export function searchValueToEmit(next: string, lastEmitted: string): string | null {
  const value = normalizeSearchText(next);
  if (value !== '' && graphemeLength(value) < SEARCH_MIN_LENGTH) return null;
  return value === normalizeSearchText(lastEmitted) ? null : value;
}

/** True when `searchValueToEmit` would emit. */
export function shouldEmitSearch(next: string, lastEmitted: string): boolean {
  return searchValueToEmit(next, lastEmitted) !== null;
}
