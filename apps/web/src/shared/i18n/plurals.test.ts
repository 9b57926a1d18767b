import { describe, expect, it } from 'vitest';
import { i18n, SUPPORTED_LANGUAGES } from '.';
import { en } from './en';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') entries.set(`${prefix}${key}`, value);
    else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) entries.set(inner, text);
  }
  return entries;
}

/** Every feature's texts (importing them registers their namespace), by namespace: bulk-actions → bulkActions. */
const featureTexts = import.meta.glob<Record<string, { en: Tree }>>('../../features/*/i18n.ts', {
  eager: true,
});
const namespaces: [string, Tree][] = [
  ['translation', en as unknown as Tree],
  ...Object.entries(featureTexts).map(([path, module]): [string, Tree] => {
    const folder = /features\/([^/]+)\/i18n\.ts$/.exec(path)?.[1] ?? '';
    const texts = Object.values(module)[0];
    return [folder.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase()), texts?.en ?? {}];
  }),
];

/** Each count message (a base key with `_one` and `_other` forms), with its namespace. */
const countMessages = namespaces.flatMap(([ns, tree]) =>
  [...flatten(tree).keys()]
    .map((key) => /^(.*)_one$/.exec(key)?.[1])
    .filter((base): base is string => base !== undefined)
    .map((base) => [ns, base] as const),
);

/** The text with each placeholder but `count` filled with its own name, so any form can be compared. */
function fill(text: string, count: number): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) =>
    name === 'count' ? String(count) : `<${name}>`,
  );
}
function placeholderValues(text: string): Record<string, string> {
  return Object.fromEntries(
    [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)]
      .map((match) => match[1] ?? '')
      .filter((name) => name !== 'count')
      .map((name) => [name, `<${name}>`]),
  );
}

/** What a call site shows: the base key with `count`, in a given language. */
const say = (key: string, count: number, lng: string, values: Record<string, string> = {}) =>
  (i18n.t as unknown as (key: string, options: object) => string)(key, { ...values, count, lng });

describe('count messages', () => {
  it('finds the count messages of the shared and the feature texts', () => {
    expect(countMessages.length).toBeGreaterThan(50);
    expect(countMessages).toContainEqual(['bulkActions', 'confirmApproveBody']);
    expect(countMessages).toContainEqual(['patientRecord', 'medication.podsAdded']);
  });

  it.each(countMessages)(
    '%s:%s reads its one form for one, and a text (never the key) for every other count, in every language',
    (ns, base) => {
      for (const lng of SUPPORTED_LANGUAGES) {
        const one = i18n.getResource(lng, ns, `${base}_one`) as string;
        const other = i18n.getResource(lng, ns, `${base}_other`) as string;
        const values = placeholderValues(other);
        expect(say(`${ns}:${base}`, 1, lng, values), `${lng} 1`).toBe(fill(one, 1));
        expect(say(`${ns}:${base}`, 2, lng, values), `${lng} 2`).toBe(fill(other, 2));
        // French and Portuguese have a 'many' form (1,000,000), served by the base key.
        expect(say(`${ns}:${base}`, 1_000_000, lng, values), `${lng} 1000000`).toBe(fill(other, 1_000_000));
      }
    },
  );

  it('speaks of one patient, pod, alert or message in the singular, in every language', () => {
    const approve = (count: number, lng: string) =>
      say('bulkActions:confirmApproveBody', count, lng, { action: 'X' });
    expect(approve(1, 'en')).toBe('X will be applied to 1 patient now.');
    expect(approve(3, 'en')).toBe('X will be applied to 3 patients now.');
    // German: the accusative of the weak noun Patient is "Patienten" in the singular too.
    expect(approve(1, 'de')).toBe('X wird jetzt auf 1 Patienten angewendet.');
    expect(approve(1, 'fr')).toBe('X sera appliqué à 1 patient maintenant.');
    expect(approve(1, 'pt')).toBe('X será aplicado a 1 paciente agora.');
    expect(say('bulkActions:confirmCancelBody', 1, 'en', { action: 'X' })).toBe(
      'X will not be applied to the 1 patient.',
    );
    expect(say('bulkActions:confirmCancelBody', 1, 'de', { action: 'X' })).toBe(
      'X wird nicht auf den 1 Patienten angewendet.',
    );
    expect(say('bulkActions:confirmCancelBody', 1, 'pt', { action: 'X' })).toBe(
      'X não será aplicado ao 1 paciente.',
    );
    expect(say('bulkActions:counts.patients', 1, 'de')).toBe('1 Patient');
    expect(say('bulkActions:counts.done', 1, 'fr')).toBe('1 fait');
    expect(say('bulkActions:counts.done', 0, 'fr')).toBe('0 fait');
    expect(say('bulkActions:counts.failed', 2, 'pt')).toBe('2 falhados');

    const podsAdded = (count: number, lng: string) => say('patientRecord:medication.podsAdded', count, lng);
    expect(podsAdded(1, 'en')).toBe('1 pod added');
    expect(podsAdded(3, 'en')).toBe('3 pods added');
    expect(podsAdded(1, 'de')).toBe('1 Pod hinzugefügt');
    expect(podsAdded(1, 'fr')).toBe('1 pod ajouté');
    expect(podsAdded(1, 'pt')).toBe('1 pod adicionado');
    expect(say('patientRecord:medication.podCount', 1, 'en')).toBe('1 pod');
    expect(say('patientRecord:medication.servingsLeft', 1, 'de')).toBe('1 Einheit übrig');
    expect(say('patientRecord:age', 1, 'fr')).toBe('1 an');

    const acknowledged = (count: number, lng: string) => say('alerts:toasts.acknowledged', count, lng);
    expect(acknowledged(1, 'en')).toBe('1 alert acknowledged');
    expect(acknowledged(4, 'en')).toBe('4 alerts acknowledged');
    expect(acknowledged(1, 'de')).toBe('1 Alarm bestätigt');
    expect(acknowledged(1, 'fr')).toBe('1 alerte prise en compte');
    expect(acknowledged(1, 'pt')).toBe('1 alerta reconhecido');
    expect(say('alerts:confirm.clearTitle', 1, 'en')).toBe('Clear the selected alert?');
    expect(say('alerts:detail.averageOf', 1, 'pt')).toBe('média de 1 medição');

    const unread = (count: number, lng: string) => say('messenger:list.unread', count, lng);
    expect(unread(1, 'en')).toBe('1 unread message');
    expect(unread(5, 'en')).toBe('5 unread messages');
    expect(unread(1, 'de')).toBe('1 ungelesene Nachricht');
    expect(unread(1, 'fr')).toBe('1 message non lu');
    expect(unread(1, 'pt')).toBe('1 mensagem não lida');
    expect(say('messenger:replies', 1, 'en')).toBe('1 reply');
    expect(say('messenger:replies', 1, 'de')).toBe('1 Antwort');

    expect(say('externalOrders:review.confirmBody', 1, 'en', { name: 'N' })).toBe(
      "1 order of N becomes a regimen on the patient's medication plan and the equipment file is sent to the packaging line.",
    );
    expect(say('externalOrders:import.duplicates', 1, 'en')).toBe(
      '1 order already imported (left as it was)',
    );
    expect(say('cohorts:count', 1, 'pt')).toBe('1 doente');
    expect(say('escalations:cohort.sent', 1, 'en', { skipped: '0' })).toBe(
      'Texted 1 patient (0 without a mobile phone)',
    );
    expect(say('notifications:reminders.sent', 1, 'pt')).toBe('Enviado 1 vez');
    expect(say('surveys:detail.maxPoints', 1, 'en')).toBe('at most 1 point');
    expect(say('patients.age', 1, 'pt')).toBe('(1 ano)');
  });
});
