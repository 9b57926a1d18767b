import { THEMES } from '@caredeck/contracts';
import { readItem, writeItem } from '../browser-storage';
import { createStore, useStore } from './createStore';

export type ThemePreference = (typeof THEMES)[number];
export const THEME_STORAGE_KEY = 'caredeck.theme';
export const DEFAULT_THEME: ThemePreference = 'light';

export function isThemePreference(value: unknown): value is ThemePreference {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

function stored(): ThemePreference {
  const value = readItem(THEME_STORAGE_KEY);
  return isThemePreference(value) ? value : DEFAULT_THEME;
}

/** light, dark, or semi-dark: dark navigation beside light content (01 §2). Default light. */
export const themePreference = createStore<ThemePreference>(stored());

export function applyTheme(theme: ThemePreference): void {
  writeItem(THEME_STORAGE_KEY, theme);
  themePreference.set(theme);
}

export function useThemePreference(): ThemePreference {
  return useStore(themePreference);
}
