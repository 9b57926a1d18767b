import { LANGUAGES } from '@caredeck/contracts';
import { createInstance } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { de } from './de';
import { en } from './en';
import { fr } from './fr';
import { pt } from './pt';
import type { TranslationShape } from './types';

export type Language = (typeof LANGUAGES)[number];
export const SUPPORTED_LANGUAGES: readonly Language[] = LANGUAGES;
export const DEFAULT_LANGUAGE: Language = 'en';
/** Before sign-in the console speaks the language chosen on this device (or English). */
export const LANGUAGE_STORAGE_KEY = 'caredeck.language';

export const translations = { en, de, fr, pt } as const;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

function storedLanguage(): Language {
  try {
    const value = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(value) ? value : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export const i18n = createInstance();

// Registered before init, so the language chosen at start-up sets <html lang> too (screen readers pronounce the
// page in that language).
i18n.on('languageChanged', (language) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
});

void i18n.use(initReactI18next).init({
  resources: {
    en: { translation: en },
    de: { translation: de },
    fr: { translation: fr },
    pt: { translation: pt },
  },
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...SUPPORTED_LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** Switches the interface language and remembers it on this device. */
export async function applyLanguage(language: Language): Promise<void> {
  try {
    globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage may be unavailable (private mode); the language still applies for this visit.
  }
  if (i18n.language !== language) await i18n.changeLanguage(language);
}

/** A feature's texts in every language: English is the reference, the others have its shape. */
export type FeatureTexts<T> = { en: T } & Record<Exclude<Language, 'en'>, TranslationShape<T>>;

/** Adds a feature's namespace (called by the feature's i18n.ts, which loads with its pages). */
export function registerTexts<T extends object>(namespace: string, texts: FeatureTexts<T>): FeatureTexts<T> {
  for (const language of SUPPORTED_LANGUAGES) {
    if (!i18n.hasResourceBundle(language, namespace))
      i18n.addResourceBundle(language, namespace, texts[language], true, true);
  }
  return texts;
}
