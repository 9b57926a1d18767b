import { AUDIT_ACTIONS, LANGUAGES } from '@caredeck/contracts';
import { describe, expect, it } from 'vitest';
import { AUDIT_LABELS, auditActionLabel } from './labels';

describe('audit action labels', () => {
  it.each(LANGUAGES)('names every declared audit action in %s, in words', (language) => {
    const table = AUDIT_LABELS[language] as Record<string, string | undefined>;
    const unlabelled = AUDIT_ACTIONS.filter((action) => !table[action]?.trim());
    expect(unlabelled).toEqual([]);
    const codes = AUDIT_ACTIONS.filter(
      (action) => /[._]/.test(table[action] ?? '') && table[action] === action,
    );
    expect(codes).toEqual([]);
  });

  it('labels no action the server does not declare', () => {
    for (const language of LANGUAGES)
      expect(Object.keys(AUDIT_LABELS[language]).sort()).toEqual([...AUDIT_ACTIONS].sort());
  });

  it('shows the label in the interface language, and an unknown action in words, never its code', () => {
    expect(auditActionLabel('order_form.list_view', 'en')).toBe('Order forms viewed');
    expect(auditActionLabel('patient.view', 'de')).toBe('Akte angesehen');
    expect(auditActionLabel('billing.patient_view', 'fr')).toBe('Facturation du patient consultée');
    expect(auditActionLabel('something.new', 'pt')).toBe('Outra atividade');
    expect(auditActionLabel('patient.view', 'xx')).toBe('Record viewed');
    expect(auditActionLabel('toString', 'toString')).toBe('Other activity');
  });
});
