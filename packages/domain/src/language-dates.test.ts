import { describe, expect, it } from 'vitest';
import { reorderUsDate } from './date-order';
import { formatLanguageDate, parseLanguageDate } from './language-dates';

const ok = (date: string) => ({ ok: true, date });
const refused = (reason: string) => ({ ok: false, reason });

describe('one date format per language (ADR 054)', () => {
  it('English reads MM/DD/YYYY, the way the console shows dates: 12/04/2026 is 4 December', () => {
    expect(parseLanguageDate('12/04/2026', 'en')).toEqual(ok('2026-12-04'));
    expect(parseLanguageDate(' 4/12/2026 ', 'en')).toEqual(ok('2026-04-12'));
    expect(parseLanguageDate('02/30/2026', 'en')).toEqual(refused('impossible'));
    expect(parseLanguageDate('13/04/2026', 'en')).toEqual(refused('impossible'));
  });

  it('German reads DD.MM.YYYY', () => {
    expect(parseLanguageDate('12.04.2026', 'de')).toEqual(ok('2026-04-12'));
    expect(parseLanguageDate('1.2.1954', 'de')).toEqual(ok('1954-02-01'));
    expect(parseLanguageDate('31.04.2026', 'de')).toEqual(refused('impossible'));
  });

  it.each(['fr', 'pt'])('%s reads DD/MM/YYYY', (language) => {
    expect(parseLanguageDate('12/04/2026', language)).toEqual(ok('2026-04-12'));
    expect(parseLanguageDate('29/02/2028', language)).toEqual(ok('2028-02-29'));
    expect(parseLanguageDate('29/02/2027', language)).toEqual(refused('impossible'));
  });

  it.each(['en', 'de', 'fr', 'pt'])('%s also reads ISO YYYY-MM-DD, which has one reading', (language) => {
    expect(parseLanguageDate('2026-04-12', language)).toEqual(ok('2026-04-12'));
  });

  it.each([
    ['en', ['12.04.2026', '12-04-2026', '12/04/26', '2026/04/12', '12 04 2026', 'tomorrow', '12/04']],
    ['de', ['12/04/2026', '12-04-2026', '12.04.26', '04.2026']],
    ['fr', ['12.04.2026', '12-04-2026', '12/04/26', '1/2/3']],
    ['pt', ['12.04.2026', '12-04-2026', '12/04/26']],
  ])(
    '%s refuses what is not its format (another separator, a two-digit year): no guess',
    (language, inputs) => {
      for (const input of inputs) expect(parseLanguageDate(input, language)).toEqual(refused('format'));
    },
  );

  it('refuses an empty entry and checks the bounds after the day', () => {
    expect(parseLanguageDate('  ', 'en')).toEqual(refused('empty'));
    expect(parseLanguageDate('04/11/2026', 'en', { min: '2026-04-12' })).toEqual(refused('beforeMin'));
    expect(parseLanguageDate('13.04.2026', 'de', { max: '2026-04-12' })).toEqual(refused('afterMax'));
    expect(() => parseLanguageDate('12/04/2026', 'en', { min: '12/04/2026' })).toThrow(RangeError);
  });

  it('an unknown language falls back to English', () => {
    expect(parseLanguageDate('12/04/2026', 'xx')).toEqual(ok('2026-12-04'));
    expect(formatLanguageDate('2026-04-12', undefined)).toBe('04/12/2026');
  });

  it('formats a day back in the format it is typed in, so what is shown can be typed again', () => {
    expect(formatLanguageDate('2026-04-12', 'en')).toBe('04/12/2026');
    expect(formatLanguageDate('2026-04-12', 'de')).toBe('12.04.2026');
    expect(formatLanguageDate('2026-04-12', 'fr')).toBe('12/04/2026');
    expect(formatLanguageDate('2026-04-12', 'pt')).toBe('12/04/2026');
    for (const language of ['en', 'de', 'fr', 'pt']) {
      expect(parseLanguageDate(formatLanguageDate('1957-04-23', language), language)).toEqual(
        ok('1957-04-23'),
      );
    }
  });

  it("puts the spec's US display text in the language's order, keeping the time", () => {
    expect(reorderUsDate('04/12/2026', 'en')).toBe('04/12/2026');
    expect(reorderUsDate('04/12/2026 02:05 PM', 'de')).toBe('12.04.2026 02:05 PM');
    expect(reorderUsDate('04/12/26', 'fr')).toBe('12/04/26');
    expect(reorderUsDate('04/12', 'pt')).toBe('12/04');
    expect(reorderUsDate('N/A', 'de')).toBe('N/A');
    expect(reorderUsDate('04/12/2026', 'constructor')).toBe('04/12/2026');
    for (const language of ['de', 'fr', 'pt']) {
      expect(reorderUsDate('04/12/2026', language)).toBe(formatLanguageDate('2026-04-12', language));
    }
  });
});
