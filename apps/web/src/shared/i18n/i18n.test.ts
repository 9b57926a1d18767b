import { PASSWORDS_DO_NOT_MATCH } from '@caredeck/contracts';
import { NOT_PROVIDED } from '@caredeck/domain';
import { describe, expect, it, vi } from 'vitest';
import { de } from './de';
import { en } from './en';
import { fr } from './fr';
import { pt } from './pt';

const translations = { en, de, fr, pt } as const;

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') entries.set(`${prefix}${key}`, value);
    else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) entries.set(inner, text);
  }
  return entries;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1] ?? '').sort();
}

const english = flatten(translations.en);
const others = (['de', 'fr', 'pt'] as const).map(
  (language) => [language, flatten(translations[language])] as const,
);

// The application's own source, to check that every key is used and no text bypasses the translations.
const sources = import.meta.glob<string>(
  ['../../**/*.{ts,tsx}', '!../../**/*.test.{ts,tsx}', '!../../test/**', '!./**'],
  {
    query: '?raw',
    import: 'default',
    eager: true,
  },
);

/** Keys built at run time from data (`patients.sex.${sex}` …): their prefix appears in the source instead. */
const DYNAMIC_PREFIXES = [
  'patients.columns.',
  'patients.sex.',
  'patients.status.',
  'patients.readings.',
  'patients.filters.followUpWhen.',
  'patients.filters.assessmentStates.',
  'patients.filters.incomes.',
  'patients.filters.patientTypes.',
  'patients.exportKinds.',
  'patients.exportHint.',
  'languages.',
];

/**
 * Keys whose text is the same as in English on purpose: the product name, the language names (each in its own
 * language), the keyboard shortcut, and words the two languages share. A prefix ending in '.' covers a group.
 */
const SAME_AS_ENGLISH: Record<'de' | 'fr' | 'pt', readonly string[]> = {
  de: [
    'app.name',
    'pages.patient.title',
    'languages.',
    'search.shortcut',
    'patients.searchPlaceholder',
    'patients.columns.name',
    'patients.columns.status',
    'patients.columns.mrn',
    'patients.filters.status',
    'patients.exportKinds.pods',
  ],
  fr: [
    'app.name',
    'pages.patient.title',
    'languages.',
    'search.shortcut',
    'search.pages',
    'search.patients',
    'nav.patients',
    'patients.title',
    'legal.terms.contactTitle',
    'legal.privacy.contactTitle',
    'patients.exportKinds.',
  ],
  pt: ['app.name', 'languages.', 'search.shortcut', 'patients.total', 'patients.exportKinds.pods'],
};

describe('translations', () => {
  it.each(others)(
    '%s has exactly the English keys, none empty, with the same placeholders',
    (_language, entries) => {
      expect([...entries.keys()].sort()).toEqual([...english.keys()].sort());
      for (const [key, text] of entries) {
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(english.get(key) ?? ''));
      }
    },
  );

  it.each(others)('%s is a real translation, not a copy of the English texts', (language, entries) => {
    const copied = [...entries]
      .filter(([key, text]) => text === english.get(key))
      .map(([key]) => key)
      .filter(
        (key) => !SAME_AS_ENGLISH[language].some((allowed) => key === allowed || key.startsWith(allowed)),
      );
    expect(copied).toEqual([]);
    // Hardly any text may stay as in English: names, the shortcut, and words the languages share.
    expect(entries.size - copied.length).toBeGreaterThan(0);
    const shared = [...entries].filter(([key, text]) => text === english.get(key)).length;
    expect(shared / entries.size).toBeLessThan(0.1);
  });

  it('translates the spec’s fixed messages too (a sample of each language)', () => {
    const samples = {
      de: ['Anmelden', 'Sie sind bereits angemeldet!', 'Keine Angabe', 'Passwort abgelaufen'],
      fr: ['Se connecter', 'Vous êtes déjà connecté !', 'Non renseigné', 'Mot de passe expiré'],
      pt: ['Iniciar sessão', 'Já tem sessão iniciada!', 'Não indicado', 'Palavra-passe expirada'],
    } as const;
    for (const language of ['de', 'fr', 'pt'] as const) {
      const texts = translations[language];
      expect(
        [
          texts.auth.signIn,
          texts.auth.alreadyLoggedIn,
          texts.common.notProvided,
          texts.auth.passwordExpiredTitle,
        ],
        language,
      ).toEqual(samples[language]);
    }
  });

  it('sets <html lang> to the language remembered on this device at start-up, and on every change', async () => {
    localStorage.setItem('caredeck.language', 'fr');
    document.documentElement.lang = 'en';
    vi.resetModules();
    const fresh = await import('.');
    await fresh.i18nReady;
    expect(fresh.i18n.language).toBe('fr');
    expect(fresh.i18n.t('auth.signIn')).toBe('Se connecter');
    expect(document.documentElement.lang).toBe('fr');
    await fresh.applyLanguage('pt');
    expect(document.documentElement.lang).toBe('pt');
  });

  it('has no empty English text', () => {
    for (const [key, text] of english) expect(text.trim(), key).not.toBe('');
  });

  it('keeps the exact English messages of the specification', () => {
    expect(translations.en.auth.passwordsDoNotMatch).toBe(PASSWORDS_DO_NOT_MATCH);
    expect(translations.en.common.notProvided).toBe(NOT_PROVIDED);
    expect(translations.en.errors.backend).toBe('Error communicating with backend!');
    expect(translations.en.auth.alreadyLoggedIn).toBe('You are already logged in!');
    expect(
      `${translations.en.auth.passwordExpiredTitle} — ${translations.en.auth.passwordExpiredMessage}`,
    ).toBe(
      'Password Expired — Your password automatically expires after 3 months, please reset your password to login',
    );
  });

  it('uses every key somewhere in the application', () => {
    const code = Object.values(sources).join('\n');
    // i18next plural forms (`done_one`, `done_other`) are used through their base key with `count`.
    const unused = [...english.keys()]
      .map((key) => key.replace(/_(zero|one|two|few|many|other)$/, ''))
      .filter(
        (key) => !code.includes(`'${key}'`) && !DYNAMIC_PREFIXES.some((prefix) => key.startsWith(prefix)),
      );
    expect(unused).toEqual([]);
  });

  it('gives every count message its one and other forms, and a base key for the forms a language has beyond them', () => {
    for (const key of english.keys()) {
      const plural = /^(.*)_(one|other)$/.exec(key);
      if (!plural) continue;
      for (const form of ['_one', '_other', '']) expect(english.has(`${plural[1]}${form}`), key).toBe(true);
    }
  });

  it('finds no user-facing text written straight into a component', () => {
    const offenders: string[] = [];
    for (const [path, code] of Object.entries(sources)) {
      if (!path.endsWith('.tsx')) continue;
      // JSX text between tags, and text props a user reads or hears.
      const jsxText = [...code.matchAll(/>\s*([^<>{}\n()=&|?;]*[A-Za-z]{2,}[^<>{}\n()=&|?;]*?)\s*</g)].map(
        (match) => match[1],
      );
      const textProps = [
        ...code.matchAll(/\b(label|placeholder|title|description|aria-label|alt)="([^"]*[A-Za-z][^"]*)"/g),
      ].map((match) => `${match[1]}="${match[2]}"`);
      for (const text of [...jsxText, ...textProps]) offenders.push(`${path}: ${text}`);
    }
    expect(offenders).toEqual([]);
  });
});
