import { ELLIPSIS } from './display-text';
import { graphemes } from './graphemes';

export const EXCERPT_DEFAULT_LENGTH = 30;
export const TRUNCATE_DEFAULT_LENGTH = 20;

function normalizeLimit(length: number, fallback: number): number {
  return Number.isNaN(length) ? fallback : Math.max(0, Math.floor(length));
}

/**
 * Shortens `text` to at most `length` characters (graphemes) including the '...'. Text that fits is
 * returned unchanged. With `atWordBoundary`, the cut moves back to the last space when it would split a
 * word (unless that leaves nothing).
 */
function shorten(text: string, length: number, atWordBoundary: boolean): string {
  const chars = graphemes(text);
  if (chars.length <= length) return text;
  // No room for the ellipsis and any text: a plain cut is the only way to respect the limit.
  if (length <= ELLIPSIS.length) return chars.slice(0, length).join('');
  let head = chars.slice(0, length - ELLIPSIS.length).join('');
  const next = chars[length - ELLIPSIS.length] ?? '';
  if (atWordBoundary && !/^\s/.test(next)) {
    const lastSpace = head.search(/\s\S*$/);
    const cut = lastSpace > 0 ? head.slice(0, lastSpace).trimEnd() : '';
    if (cut !== '') head = cut;
  }
  return `${head.trimEnd()}${ELLIPSIS}`;
}

/** Hard cut for labels: at most `length` (default 20) characters including the trailing '...'. */
export function truncate(text: string | null | undefined, length: number = TRUNCATE_DEFAULT_LENGTH): string {
  return shorten(text ?? '', normalizeLimit(length, TRUNCATE_DEFAULT_LENGTH), false);
}

/** Word-aware cut for previews: at most `length` (default 30) characters including the trailing '...'. */
export function excerpt(text: string | null | undefined, length: number = EXCERPT_DEFAULT_LENGTH): string {
  return shorten(text ?? '', normalizeLimit(length, EXCERPT_DEFAULT_LENGTH), true);
}
