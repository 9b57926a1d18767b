// Kept apart from the parser (language-dates.ts), so the screens that only show dates load these few bytes.
// The day-first languages and their separators are those of LANGUAGE_DATE_FORMATS (ADR 054).

/**
 * Display text made with one of the spec's US patterns (MM/DD/YYYY, MM/DD/YY, MM/DD, with or without a time
 * after it) put in the language's order: '04/12/2026 02:05 PM' reads '12.04.2026 02:05 PM' in German. Text
 * that does not start with such a date ('N/A', '*…') is returned unchanged.
 */
export function reorderUsDate(text: string, language: string | null | undefined): string {
  // Written small: it loads with the first screen (ADR 048).
  const s = language === 'de' ? '.' : language === 'fr' || language === 'pt' ? '/' : '';
  return s ? text.replace(/^(\d\d)\/(\d\d)(\/(?=\d))?/, (_, m, d, y) => d + s + m + (y ? s : '')) : text;
}
