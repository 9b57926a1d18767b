import type { AuditAction } from '@caredeck/contracts';
import type { Language } from '../../shared/i18n';
import { de } from './labels-de';
import { en } from './labels-en';
import { fr } from './labels-fr';
import { pt } from './labels-pt';
import type { AuditLabels } from './labels-type';

/**
 * What each audit action is called in the console, in every language (issue 32 item 4): the record's History
 * tab and a staff member's activity show these, never the action's code. Typed by the declared actions
 * (contracts AUDIT_ACTIONS), so an action added without a label does not compile; audit-labels.test.ts checks
 * the tables at run time too. Loaded only with the pages that show audit entries (not the first-load chunk).
 */
export type { AuditLabels } from './labels-type';

export const AUDIT_LABELS: Record<Language, AuditLabels> = { en, de, fr, pt };

/** An action the console does not know (an older row, a newer server) is named in words, never by its code. */
export const OTHER_AUDIT_ACTION: Record<Language, string> = {
  en: 'Other activity',
  de: 'Sonstige Aktivität',
  fr: 'Autre activité',
  pt: 'Outra atividade',
};

/** The label of an audit action in the given language (English for an unsupported language). */
export function auditActionLabel(action: string, language: string): string {
  const lang = (Object.hasOwn(AUDIT_LABELS, language) ? language : 'en') as Language;
  const table = AUDIT_LABELS[lang];
  return Object.hasOwn(table, action) ? table[action as AuditAction] : OTHER_AUDIT_ACTION[lang];
}
