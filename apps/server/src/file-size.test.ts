import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Source files stay under {LIMIT} lines (issue 29 §6): a file that grows past it is a catch-all to split.
 * The files over it when this test was written are listed (with their size then); the list may only shrink:
 * a new file over the limit fails, and so does a listed file that came under it (take it off the list).
 * Tests, generated files and the migrations are not counted.
 */
const LIMIT = 400;
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const ROOTS = [
  'apps/server/src',
  'apps/web/src',
  'apps/devices/src',
  'packages/contracts/src',
  'packages/domain/src',
];

const OVER_THE_LIMIT = new Set([
  'apps/web/src/features/patient-record/i18n.ts', // 1737
  'apps/web/src/features/alerts/i18n.ts', // 1283
  'apps/server/src/modules/reports/reports.service.ts', // 1132
  'apps/server/src/modules/alerts/alerts.engine.ts', // 820
  'apps/server/src/seed/demo-care.ts', // 803
  'apps/server/src/modules/alerts/alerts.queries.ts', // 802
  'apps/web/src/features/surveys/i18n.ts', // 785
  'apps/web/src/features/reports/i18n.ts', // 776
  'apps/web/src/features/patient-record/components/MedicationPanel.tsx', // 758
  'apps/web/src/features/devices/i18n.ts', // 748
  'apps/server/src/modules/surveys/surveys.service.ts', // 646
  'packages/contracts/src/alerts.ts', // 636
  'apps/web/src/features/external-orders/i18n.ts', // 632
  'apps/server/src/modules/surveys/surveys.queries.ts', // 624
  'apps/web/src/features/patient-record/api.ts', // 619
  'packages/contracts/src/patient-record.ts', // 616
  'apps/web/src/features/messenger/i18n.ts', // 598
  'apps/server/src/modules/pipelines/pipelines.service.ts', // 585
  'apps/server/src/modules/identity/identity.service.ts', // 579
  'packages/contracts/src/surveys.ts', // 571
  'apps/server/src/modules/messenger/messenger.service.ts', // 570
  'apps/web/src/features/surveys/components/PatientSurveysPanel.tsx', // 566
  'packages/contracts/src/devices.ts', // 565
  'apps/server/src/modules/reports/reports.queries.ts', // 561
  'apps/server/src/modules/pipelines/pipelines.queries.ts', // 552
  'apps/web/src/features/staff/i18n.ts', // 550
  'apps/server/src/modules/messenger/messenger.queries.ts', // 544
  'apps/web/src/features/alerts/pages/AlertsPage.tsx', // 542
  'apps/web/src/features/notes/components/NotesPanel.tsx', // 538
  'apps/web/src/shared/i18n/de.ts', // 537
  'apps/server/src/modules/external-orders/external-orders.queries.ts', // 534
  'apps/web/src/shared/i18n/pt.ts', // 532
  'apps/web/src/shared/i18n/fr.ts', // 530
  'apps/web/src/shared/i18n/en.ts', // 522
  'apps/server/src/modules/external-orders/external-orders.service.ts', // 515
  'apps/web/src/features/billing/i18n.ts', // 508
  'packages/contracts/src/medications.ts', // 494
  'apps/web/src/features/bulk-actions/pages/BulkActionsPage.tsx', // 494
  'apps/web/src/features/pipelines/pages/PipelinePage.tsx', // 493
  'packages/contracts/src/pipelines.ts', // 481
  'apps/web/src/features/billing/pages/BillingsPage.tsx', // 481
  'apps/server/src/modules/administration/administration.service.ts', // 473
  'apps/server/src/modules/medications/medications.service.ts', // 461
  'apps/server/src/modules/medications/medications.queries.ts', // 454
  'apps/web/src/features/notifications/components/NotificationsPanel.tsx', // 446
  'apps/server/src/modules/devices/devices.service.ts', // 437
  'packages/contracts/src/external-orders.ts', // 436
  'packages/contracts/src/reports.ts', // 434
  'packages/contracts/src/data-views.ts', // 426
  'apps/server/src/modules/patients/record.queries.ts', // 426
  'apps/server/src/modules/patients/patients.queries.ts', // 410
  'apps/web/src/features/alerts/components/RulesPanel.tsx', // 402
  'apps/server/src/modules/order-forms/order-forms.service.ts', // 401
]);

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...sources(full));
    else if (/\.tsx?$/.test(entry) && !/\.(test|spec)\.tsx?$/.test(entry)) out.push(full);
  }
  return out;
}

describe('source file sizes', () => {
  it(`keeps every source file under ${LIMIT} lines but the listed ones, and the list only shrinks`, () => {
    const sizes = new Map<string, number>();
    for (const root of ROOTS)
      for (const file of sources(path.join(REPO, root)))
        sizes.set(path.relative(REPO, file), readFileSync(file, 'utf8').split('\n').length - 1);
    const newlyOver = [...sizes]
      .filter(([f, n]) => n > LIMIT && !OVER_THE_LIMIT.has(f))
      .map(([f, n]) => `${f} (${n})`);
    const nowUnder = [...OVER_THE_LIMIT].filter((f) => (sizes.get(f) ?? 0) <= LIMIT);
    expect(newlyOver, `over ${LIMIT} lines: split these files`).toEqual([]);
    expect(nowUnder, 'under the limit now (or gone): take them off OVER_THE_LIMIT').toEqual([]);
  });
});
