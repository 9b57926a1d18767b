import { LANGUAGES } from '@caredeck/contracts';
import { createInstance } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import type { TranslationShape } from './types';

export type Language = (typeof LANGUAGES)[number];
export const SUPPORTED_LANGUAGES: readonly Language[] = LANGUAGES;
export const DEFAULT_LANGUAGE: Language = 'en';
/** Before sign-in the console speaks the language chosen on this device (or English). */
export const LANGUAGE_STORAGE_KEY = 'caredeck.language';

/**
 * The shared texts of the other languages load when chosen (English is the reference and the fallback, and
 * ships with the first screen): a visitor downloads one language, not four.
 */
const otherLanguages: Record<Exclude<Language, 'en'>, () => Promise<TranslationShape<typeof en>>> = {
  de: () => import('./de').then((module) => module.de),
  fr: () => import('./fr').then((module) => module.fr),
  pt: () => import('./pt').then((module) => module.pt),
};

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

/** Loads a language's shared texts once (feature texts come with their feature's code). */
export async function loadLanguage(language: Language): Promise<void> {
  if (language === 'en' || i18n.hasResourceBundle(language, 'translation')) return;
  i18n.addResourceBundle(language, 'translation', await otherLanguages[language](), true, true);
}

const startLanguage = storedLanguage();

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  // Another language starts once its texts are here (`i18nReady`); nothing is drawn before that.
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...SUPPORTED_LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** The language remembered on this device is loaded and active (the console renders after this). */
export const i18nReady: Promise<void> = applyStartLanguage();

async function applyStartLanguage(): Promise<void> {
  if (startLanguage === DEFAULT_LANGUAGE) return;
  try {
    await loadLanguage(startLanguage);
    await i18n.changeLanguage(startLanguage);
  } catch (error) {
    // Offline or a newer deployment: the console still opens, in English.
    console.error('The texts of the chosen language could not be loaded', error);
  }
}

/** Switches the interface language and remembers it on this device. */
export async function applyLanguage(language: Language): Promise<void> {
  try {
    globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage may be unavailable (private mode); the language still applies for this visit.
  }
  await loadLanguage(language);
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
