import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import type { Realtime } from '../../platform/realtime/realtime';
import { given } from '../../seed/given';
import { testApp } from '../../test/harness';
import { createRollupJob } from '../adherence/rollup.job';
import { createAlertEngine } from './alerts.engine';

let app: App;
let db: Database;

beforeAll(async () => {
  ({ app, db } = await testApp());
});

async function openAlerts(patientId: number) {
  const res = await db.execute<{ type: string }>(sql`
    SELECT type FROM alerts WHERE patient_id = ${patientId} AND status <> 'resolved' ORDER BY type`);
  return res.rows.map((r) => r.type);
}

/**
 * The sweep classifies only what changed (issue 27 §3, ADR 068): a patient whose doses, regimens, zone or
 * settings are as they were and whose next dose window has not closed is left as it was; each of those
 * changes, and time reaching the next window's close, brings the patient back.
 */
describe('the incremental adherence sweep', () => {
  it('classifies a patient again only when a window closes, a dose arrives or the settings change', async () => {
    const g = given(db);
    const programId = (await g.program()).id;
    const day = (d: number, h: number, m = 0) => Date.UTC(2026, 0, d, h, m);
    let clock = day(10, 7);
    const engine = createAlertEngine({
      db,
      // What the sweep tells sockets is not the subject here.
      realtime: { toProgram() {}, toUser() {} } as unknown as Realtime,
      log: app.log,
      sweepMs: 0,
      evaluateWaitMs: 0,
      now: () => clock,
    });
    const rollup = createRollupJob({ db, now: () => clock });
    // The rollup job as the product runs it, a while before the sweep looks (the sweep looks back 15 s for
    // rollups committed late, ADR 068): its stamps are moved a minute back.
    const rollAll = async () => {
      while ((await rollup.run({ budgetMs: 60_000 })) > 0);
      await db.execute(sql`UPDATE adherence_rollup_state SET updated_at = updated_at - interval '1 minute'`);
    };

    const patient = await g.patient({ programId, timeZone: 'UTC' });
    const regimen = await g.regimen({
      patientId: patient.id,
      programId,
      times: ['08:00'],
      lockoutTime: 60,
      unlockBefore: 30,
      scheduledAt: new Date(day(1, 0)).toISOString(),
    });
    // Every dose taken on time from 1 to 9 January; the 10th's is still to come at 07:00.
    const taken = Array.from({ length: 9 }, (_, i) => new Date(day(i + 1, 8, 5)).toISOString());
    await g.doses({ patientId: patient.id, regimenId: regimen.id, at: taken });
    await rollAll();

    await engine.sweep();
    expect(engine.stats.adherenceClassified).toBeGreaterThanOrEqual(1);
    expect(await openAlerts(patient.id)).toEqual([]);

    // A minute later nothing changed: nobody is classified again.
    clock = day(10, 7, 1);
    await engine.sweep();
    expect(engine.stats.adherenceClassified).toBe(0);
    expect(engine.stats.adherenceUnchanged).toBeGreaterThanOrEqual(1);

    // The 10th's window closed untaken: the next sweep classifies the patient and opens the missed dose.
    clock = day(10, 9, 30);
    await engine.sweep();
    expect(engine.stats.adherenceClassified).toBe(1);
    expect(await openAlerts(patient.id)).toEqual(['missed_doses']);

    // The program's low-adherence threshold rises above 90 %: the settings changed, so the patient is
    // classified again and the low-adherence alert opens without any new dose.
    await db.execute(sql`
      INSERT INTO alert_settings (program_id, settings) VALUES (${programId}, '{"low_adherence": 95}'::jsonb)`);
    clock = day(10, 9, 31);
    await engine.sweep();
    expect(engine.stats.adherenceClassified).toBe(1);
    expect(await openAlerts(patient.id)).toEqual(['low_adherence', 'low_adherence_average', 'missed_doses']);

    // Nothing since: left alone again.
    clock = day(10, 9, 32);
    await engine.sweep();
    expect(engine.stats.adherenceClassified).toBe(0);

    // An 11th-day dose taken early (its window opens at 07:30): the dose event marks the patient, whose
    // next classification sees it, whether the rollup has caught up yet or not.
    clock = day(11, 7, 40);
    await g.doses({
      patientId: patient.id,
      regimenId: regimen.id,
      at: [new Date(day(11, 7, 35)).toISOString()],
    });
    await engine.sweep();
    expect(engine.stats.adherenceClassified).toBe(1);
    await rollup.run({ budgetMs: 60_000 });
    clock = day(11, 7, 41);
    await engine.sweep();
    expect(engine.stats.adherenceClassified).toBe(1); // rolled up since the last sweep
    expect(await openAlerts(patient.id)).not.toContain('extra_doses_alerts');
  });
});
