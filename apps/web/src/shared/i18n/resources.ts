import type { en } from './en';

/**
 * Every namespace of texts, for typed `t()`. The shared texts (shell, common words, errors) are
 * `translation`; each feature adds its own namespace beside its code (features/<name>/i18n.ts):
 *
 *   declare module '../../shared/i18n/resources' { interface Resources { cohorts: typeof en } }
 *
 * and registers its four languages with `registerTexts` when its code loads (with its lazy page).
 */
export interface Resources {
  translation: typeof en;
}
