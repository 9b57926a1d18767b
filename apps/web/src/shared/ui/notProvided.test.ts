import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n';
import { dateOrNotProvided, identityDate } from './notProvided';

describe('identityDate', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('keeps the US format in English and names the month elsewhere, without connecting words', async () => {
    expect(identityDate('1954-01-04')).toBe('01/04/1954');
    await i18n.changeLanguage('de');
    expect(identityDate('1954-01-04')).toBe('4. Jan. 1954');
    await i18n.changeLanguage('fr');
    expect(identityDate('1954-01-04')).toBe('4 janv. 1954');
    // Intl says '4 de jan. de 1954': the list's column holds '4 jan. 1954' (and the age beside it).
    await i18n.changeLanguage('pt');
    expect(identityDate('1985-12-27')).toBe('27 dez. 1985');
  });
});

describe('dateOrNotProvided', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it("shows a date in the interface language's one order (ADR 054)", async () => {
    expect(dateOrNotProvided('2026-04-12')).toBe('04/12/2026');
    await i18n.changeLanguage('de');
    expect(dateOrNotProvided('2026-04-12')).toBe('12.04.2026');
    await i18n.changeLanguage('fr');
    expect(dateOrNotProvided('2026-04-12')).toBe('12/04/2026');
    await i18n.changeLanguage('pt');
    expect(dateOrNotProvided('2026-04-12')).toBe('12/04/2026');
  });
});
