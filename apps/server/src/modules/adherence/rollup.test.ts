import { ADHERENCE_BANDS, type KpiReport } from '@caredeck/contracts';
import { DEFAULT_ON_TIME_MINUTES } from '@caredeck/domain';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StaffActor } from '../../platform/access/actor';
import type { Database } from '../../platform/db/client';
import { type Given, given } from '../../seed/given';
import { testDatabase } from '../../test/harness';
import { createAdherenceService } from './adherence.service';
import { createKpiService } from './kpi.service';
import { createRollupJob } from './rollup.job';
import { staleInRange } from './rollup-read.queries';

/**
 * The KPI read from the daily rollup (ADR 046) against the patients' own calendars, with the clocks in the
 * test's hands: whatever arrives (late and out-of-order dose events, skips, deleted events, regimen edits,
 * a new time zone) and whenever the job last ran, the KPI is the sum of the calendars.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-06-20T15:00:00Z');
const ZONES = [
  'America/New_York',
  'America/Los_Angeles',
  'Europe/Berlin',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
];
const COUNTS = ['due', 'on_time', 'late', 'missed', 'skipped', 'partial', 'pending'] as const;

let db: Database;
let g: Given;
let adminId = 0;
let clock = T0;
const now = () => clock;

const actorIn = (programId: number): StaffActor => ({
  realm: 'staff',
  adminId,
  sessionId: 0,
  sessionPublicId: '00000000-0000-0000-0000-000000000000',
  scope: 'full',
  ip: '127.0.0.1',
  program: { id: programId, enterpriseId: null, roles: ['admin'] },
});

beforeAll(async () => {
  ({ db } = await testDatabase());
  g = given(db);
  adminId = (await g.admin({ hipaaConsented: true })).id;
});

const day = (t: number) => new Date(t).toISOString().slice(0, 10);

/** What the KPI must say: the calendars of the program's patients added up, as the console would. */
async function calendarsOf(programId: number, patientIds: number[], start: string, end: string) {
  const adherence = createAdherenceService({ db, now });
  const total = { due: 0, on_time: 0, late: 0, missed: 0, skipped: 0, partial: 0, pending: 0 };
  const daily = new Map<string, typeof total>();
  const bands = { high: 0, medium: 0, low: 0 };
  let extra = 0;
  let withDosesDue = 0;
  for (const patientId of patientIds) {
    const r = await adherence.inProgram(actorIn(programId), { patientId, start, end });
    extra += r.extra.length;
    for (const k of COUNTS) total[k] += r.total[k];
    for (const d of r.days) {
      const into = daily.get(d.date) ?? {
        due: 0,
        on_time: 0,
        late: 0,
        missed: 0,
        skipped: 0,
        partial: 0,
        pending: 0,
      };
      for (const k of COUNTS) into[k] += d[k];
      daily.set(d.date, into);
    }
    if (r.total.due > 0) {
      withDosesDue++;
      const a = r.total.adherence!;
      if (a >= ADHERENCE_BANDS.high) bands.high++;
      else if (a >= ADHERENCE_BANDS.medium) bands.medium++;
      else bands.low++;
    }
  }
  return { total, extra, bands, withDosesDue, daily };
}

function expectSame(kpi: KpiReport, sum: Awaited<ReturnType<typeof calendarsOf>>, label: string) {
  for (const k of COUNTS) expect(kpi.doses[k], `${label}: ${k}`).toBe(sum.total[k]);
  expect(kpi.doses.extra, `${label}: extra`).toBe(sum.extra);
  expect(kpi.adherence_bands, `${label}: bands`).toEqual(sum.bands);
  expect(kpi.patients.with_doses_due, `${label}: with doses due`).toBe(sum.withDosesDue);
  expect(
    kpi.daily.map((d) => [d.date, ...COUNTS.map((k) => d[k])]),
    `${label}: daily`,
  ).toEqual(
    [...sum.daily.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([date, d]) => [date, ...COUNTS.map((k) => d[k])]),
  );
}

const regimenArb = fc.record({
  times: fc.uniqueArray(fc.constantFrom('06:00', '08:00', '08:30', '12:00', '20:00', '23:30'), {
    minLength: 1,
    maxLength: 3,
  }),
  repeat: fc.constantFrom('daily', 'daily', 'weekly', 'as_needed') as fc.Arbitrary<
    'daily' | 'weekly' | 'as_needed'
  >,
  lockout: fc.constantFrom(0, 60, 120, 240),
  unlock: fc.constantFrom(0, 30, 60),
  multiPod: fc.boolean(),
  num: fc.integer({ min: 1, max: 2 }),
  cascade: fc.boolean(),
  startHours: fc.integer({ min: -14 * 24, max: -2 * 24 }),
  endHours: fc.option(fc.integer({ min: -5 * 24, max: 5 * 24 }), { nil: null }),
});
const eventArb = fc.record({
  regimen: fc.nat(),
  hours: fc.integer({ min: -14 * 24 * 4, max: 0 }),
  skip: fc.integer({ min: 0, max: 9 }),
});
const patientArb = fc.record({
  zone: fc.constantFrom(...ZONES),
  regimens: fc.array(regimenArb, { minLength: 1, maxLength: 2 }),
  events: fc.array(eventArb, { maxLength: 30 }),
  late: fc.array(eventArb, { maxLength: 6 }),
});

describe('KPI from the daily rollup', () => {
  it('is the sum of the calendars, before and after the job, after late events, edits and time', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(patientArb, { minLength: 1, maxLength: 3 }),
        fc.record({
          editRegimen: fc.boolean(),
          endRegimen: fc.boolean(),
          deleteEvent: fc.boolean(),
          newZone: fc.option(fc.constantFrom(...ZONES), { nil: null }),
          laterHours: fc.integer({ min: 0, max: 60 }),
          startDaysBack: fc.integer({ min: 0, max: 12 }),
          length: fc.integer({ min: 0, max: 14 }),
        }),
        async (plan, change) => {
          clock = T0;
          const programId = (await g.program()).id;
          const patients: { id: number; regimens: number[] }[] = [];
          for (const p of plan) {
            const id = (await g.patient({ programId, timeZone: p.zone })).id;
            const regimens: number[] = [];
            for (const r of p.regimens)
              regimens.push(
                (
                  await g.regimen({
                    patientId: id,
                    programId,
                    times: r.times,
                    repeat: r.repeat,
                    lockoutTime: r.lockout,
                    unlockBefore: r.unlock,
                    multiPod: r.multiPod,
                    num: r.num,
                    timeCascade: r.cascade,
                    scheduledAt: new Date(T0 + r.startHours * HOUR).toISOString(),
                    endAt: r.endHours === null ? null : new Date(T0 + r.endHours * HOUR).toISOString(),
                  })
                ).id,
              );
            for (const e of p.events)
              await g.doses({
                patientId: id,
                regimenId: regimens[e.regimen % regimens.length]!,
                at: [new Date(T0 + e.hours * 15 * MIN).toISOString()],
                kind: e.skip === 0 ? 'skipped' : 'taken',
              });
            patients.push({ id, regimens });
          }
          const ids = patients.map((p) => p.id);
          const job = createRollupJob({ db, now });
          const kpi = createKpiService({ db, now });
          expect(await job.run()).toBeGreaterThanOrEqual(ids.length);
          const start = day(T0 - change.startDaysBack * DAY);
          const endAt = T0 - change.startDaysBack * DAY + change.length * DAY;
          const end = day(Math.min(endAt, T0 + 2 * DAY));
          // Nothing left to classify live: the KPI reads the rollup alone.
          expect(await staleInRange(db, [programId], start, end, DEFAULT_ON_TIME_MINUTES)).toEqual([]);
          const read = () => kpi.program(actorIn(programId), { start, end });
          expectSame(await read(), await calendarsOf(programId, ids, start, end), 'rolled up');
          // Time passes: windows close with nothing new, settled by the reader until the job runs again.
          clock = T0 + change.laterHours * HOUR;
          expectSame(await read(), await calendarsOf(programId, ids, start, end), 'windows closed since');

          // What arrives later: device events of days already rolled up, in any order, a regimen edited or
          // ended, an event deleted, a new time zone; and time passes.
          for (const [i, p] of plan.entries())
            for (const e of p.late)
              await g.doses({
                patientId: patients[i]!.id,
                regimenId: patients[i]!.regimens[e.regimen % patients[i]!.regimens.length]!,
                at: [new Date(T0 + e.hours * 15 * MIN).toISOString()],
                kind: e.skip === 0 ? 'skipped' : 'taken',
                source: 'dispenser',
              });
          const first = patients[0]!;
          if (change.editRegimen)
            await db.execute(
              sql`UPDATE regimens SET times = '{07:00,19:00}', lockout_time = 90 WHERE id = ${first.regimens[0]!}`,
            );
          if (change.endRegimen)
            await db.execute(
              sql`UPDATE regimens SET status = 'completed', completed_at = ${new Date(T0 - 3 * DAY).toISOString()} WHERE id = ${first.regimens.at(-1)!}`,
            );
          if (change.deleteEvent)
            await db.execute(
              sql`DELETE FROM medication_usages WHERE id = (SELECT min(id) FROM medication_usages WHERE patient_id = ${first.id})`,
            );
          if (change.newZone)
            await db.execute(sql`UPDATE patients SET time_zone = ${change.newZone} WHERE id = ${first.id}`);
          expectSame(await read(), await calendarsOf(programId, ids, start, end), 'stale, read live');
          await job.run();
          expect(await staleInRange(db, [programId], start, end, DEFAULT_ON_TIME_MINUTES)).toEqual([]);
          // The job settled every window closed a minute before it ran into its rows.
          const unsettled = await db.execute<{ n: number }>(sql`
            SELECT count(*)::int AS n FROM adherence_pending
            WHERE program_id = ${programId} AND closes_at <= ${new Date(clock - MIN).toISOString()}`);
          expect(unsettled.rows[0]!.n).toBe(0);
          expectSame(await read(), await calendarsOf(programId, ids, start, end), 'rolled up again');
        },
      ),
      { numRuns: 25 },
    );
  }, 300_000);
});
