import {
  classifyAdherence,
  DEFAULT_ON_TIME_MINUTES,
  type DoseEvent,
  emptyDay,
  eventLookbehind,
  isoDate,
  localDateOf,
  resolveDisplayZone,
  rollupDays,
  zonedInstant,
} from '@caredeck/domain';
import type { Database } from '../../platform/db/client';
import { timeSlicer } from '../../platform/jobs/yield';
import { addDays, DAY, iso } from './calendar-range';
import { regimensByPatient } from './classify-many';
import { doseEventsWithin, schedulesOfPatients } from './kpi.queries';
import {
  claimPatients,
  EVERY_DAY,
  lockRollup,
  markForgotten,
  newestMark,
  type PendingRow,
  patientsToRoll,
  type RollPatient,
  type RollupRow,
  runningTotals,
  settleClosedWindows,
  writeRollup,
} from './rollup.queries';

/** Patients rolled up per transaction. */
const CHUNK = 500;
/** At most this many days of one patient per pass (a long history is rolled up over several passes). */
const SLICE_DAYS = 92;
/**
 * The job decides and settles only windows closed this long ago: a reader whose clock is a little behind
 * (another node, or a request that started before the job committed) still finds the doses it calls
 * pending listed as pending, and settles them itself.
 */
const SETTLE_MARGIN_MS = 60_000;
/** The safety net (`markForgotten`) runs on the first pass and then this often. */
const FORGOTTEN_EVERY_MS = 10 * 60_000;

const dateOf = (s: string) => ({
  year: Number(s.slice(0, 4)),
  month: Number(s.slice(5, 7)),
  day: Number(s.slice(8, 10)),
});
const nextDay = (s: string, n = 1) => iso(addDays(dateOf(s), n));

/** What one patient's pass rolls up: local dates [from, to], and whether every older row goes too. */
type Plan = { patient: RollPatient; zone: string; from: string; to: string; wipe: boolean };

function planOf(p: RollPatient, target: string, onTime: number): Plan | null {
  const zone = resolveDisplayZone(p.time_zone);
  const fresh = p.through === null || p.on_time_minutes !== onTime || p.dirty_from === EVERY_DAY;
  let from: string;
  if (fresh) {
    // From two days before anything the patient has (windows open early; zones are ahead of UTC).
    if (p.first_at === null) return { patient: p, zone, from: target, to: target, wipe: true };
    from = nextDay(isoDate(localDateOf(p.first_at.getTime(), zone)), -2);
  } else {
    from = nextDay(p.through!);
    if (p.dirty_from !== null && p.dirty_from < from) from = p.dirty_from;
  }
  if (from > target) return fresh ? { patient: p, zone, from: target, to: target, wipe: true } : null;
  const to = nextDay(from, SLICE_DAYS - 1) < target ? nextDay(from, SLICE_DAYS - 1) : target;
  return { patient: p, zone, from, to, wipe: fresh };
}

/**
 * The rollup job (ADR 046): settles pending doses whose windows have closed, then rolls up, 500 patients per
 * transaction, every patient made stale by a trigger and every patient not yet rolled up to two days past
 * today (UTC, so past tomorrow in every zone), classifying each with the engine like the calendar does.
 * Returns how many patients it rolled up. Runs every ADHERENCE_ROLLUP_MS; tests run it by hand.
 */
export function createRollupJob(deps: { db: Database; now?: () => number }) {
  const { db } = deps;
  const clock = deps.now ?? Date.now;
  const onTime = DEFAULT_ON_TIME_MINUTES;
  let forgottenAt = Number.NEGATIVE_INFINITY;

  async function rollChunk(ids: number[], now: number, target: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      if (!(await lockRollup(tx))) return false;
      const plans = (await claimPatients(tx, ids))
        .map((p) => planOf(p, target, onTime))
        .filter((p): p is Plan => p !== null);
      const work = plans.filter((p) => p.patient.first_at !== null || !p.wipe);
      const states = plans.map((p) => ({
        patient_id: p.patient.id,
        program_id: p.patient.program_id,
        from: p.wipe ? EVERY_DAY : p.from,
        through: p.to,
      }));
      const rows: RollupRow[] = [];
      const pending: PendingRow[] = [];
      if (work.length > 0) {
        const bounds = work.map((p) => ({
          from: zonedInstant(dateOf(p.from), 0, p.zone),
          to: zonedInstant(dateOf(nextDay(p.to)), 0, p.zone),
        }));
        const wideFrom = Math.min(...bounds.map((b) => b.from));
        const wideTo = Math.max(...bounds.map((b) => b.to));
        const ids = work.map((p) => p.patient.id);
        const schedules = await schedulesOfPatients(
          tx,
          ids,
          new Date(wideFrom - 2 * DAY),
          new Date(wideTo + 2 * DAY),
          { asNeededAlways: true },
        );
        const regimensOf = regimensByPatient(schedules);
        // Each patient's events from far enough back for the doses before its range (the calendar's reach).
        const events = await doseEventsWithin(
          tx,
          work.map((p, i) => ({
            id: p.patient.id,
            from: bounds[i]!.from - eventLookbehind(regimensOf.get(p.patient.id) ?? []) - DAY,
            to: bounds[i]!.to + 2 * DAY,
          })),
        );
        const eventsOf = new Map<number, DoseEvent[]>();
        for (const e of events) {
          const list = eventsOf.get(e.patient_id) ?? [];
          list.push({ id: e.id, regimenId: e.regimen_id, at: new Date(e.at).getTime(), kind: e.kind });
          eventsOf.set(e.patient_id, list);
        }
        const base = await runningTotals(
          tx,
          work.filter((p) => !p.wipe).map((p) => ({ id: p.patient.id, day: nextDay(p.from, -1) })),
        );
        const slice = timeSlicer();
        for (const [i, plan] of work.entries()) {
          await slice();
          const result = classifyAdherence({
            regimens: regimensOf.get(plan.patient.id) ?? [],
            events: eventsOf.get(plan.patient.id) ?? [],
            zone: plan.zone,
            from: bounds[i]!.from,
            to: bounds[i]!.to,
            now,
            onTimeMinutes: onTime,
          });
          const cut = rollupDays(result, plan.zone);
          const start = base.get(plan.patient.id);
          let cumDue = start?.cum_due ?? 0;
          let cumTaken = start?.cum_taken ?? 0;
          const byDay = new Map<string, typeof cut.days>();
          for (const d of cut.days) byDay.set(d.day, [...(byDay.get(d.day) ?? []), d]);
          const ids = { patient_id: plan.patient.id, program_id: plan.patient.program_id };
          // Dense: every day gets its row with date = day, carrying the running totals.
          for (let day = plan.from; day <= plan.to; day = nextDay(day)) {
            const list = byDay.get(day) ?? [];
            for (const d of list) {
              cumDue += d.due;
              cumTaken += d.on_time + d.late;
            }
            if (!list.some((d) => d.date === day)) list.push(emptyDay(day, day));
            for (const d of list) rows.push({ ...d, ...ids, cum_due: cumDue, cum_taken: cumTaken });
          }
          const grouped = new Map<string, PendingRow>();
          for (const q of cut.pending) {
            const closes = new Date(q.closesAt).toISOString();
            const key = `${q.day}|${q.date}|${closes}|${q.becomes}`;
            const row = grouped.get(key);
            if (row) row.doses++;
            else
              grouped.set(key, {
                ...ids,
                day: q.day,
                date: q.date,
                closes_at: closes,
                becomes: q.becomes,
                doses: 1,
              });
          }
          pending.push(...grouped.values());
        }
      }
      await writeRollup(tx, { states, rows, pending, onTimeMinutes: onTime });
      return true;
    });
  }

  return {
    /**
     * One pass; `budgetMs` bounds how long it keeps taking chunks; with `restMs`, a patient rolled up less than
     * that long ago is left for a later pass (the background timer rests patients ROLLUP_REST_MS).
     */
    async run(options: { budgetMs?: number; restMs?: number } = {}): Promise<number> {
      const started = clock();
      const budget = options.budgetMs ?? 10_000;
      const now = started - SETTLE_MARGIN_MS;
      // Every zone's tomorrow is at most two days past today in UTC.
      const target = iso(addDays(localDateOf(started, 'UTC'), 2));
      const settled = await db.transaction(async (tx) => {
        if (!(await lockRollup(tx))) return false;
        if (started - forgottenAt >= FORGOTTEN_EVERY_MS) {
          await markForgotten(tx, onTime);
          forgottenAt = started;
        }
        await settleClosedWindows(tx, new Date(now));
        return true;
      });
      if (!settled) return 0;
      const upTo = await newestMark(db);
      let done = 0;
      for (;;) {
        const ids = await patientsToRoll(db, target, CHUNK, upTo, options.restMs ?? 0);
        if (ids.length === 0) break;
        if (!(await rollChunk(ids, now, target))) break;
        done += ids.length;
        if (clock() - started >= budget) break;
      }
      return done;
    },
  };
}

export type RollupJob = ReturnType<typeof createRollupJob>;
