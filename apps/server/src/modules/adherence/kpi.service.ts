import { PassThrough, type Readable } from 'node:stream';
import { ADHERENCE_BANDS, type KpiReport, kpiFileName, SUMMARY_DAYS } from '@caredeck/contracts';
import {
  type AdherenceTotals,
  classifyAdherence,
  DEFAULT_DISPLAY_ZONE,
  DEFAULT_ON_TIME_MINUTES,
  type DoseEvent,
  groupBy,
  resolveDisplayZone,
} from '@caredeck/domain';
import ExcelJS from 'exceljs';
import type { StaffActor } from '../../platform/access/actor';
import { auditView } from '../../platform/audit/audit';
import { type PopulationCache, patientsOfPrograms, uncached } from '../../platform/cache/population-cache';
import type { Database } from '../../platform/db/client';
import { toSchedule } from './adherence.service';
import { DAY, iso, lastDays, rangeOf } from './calendar-range';
import { classifyFrom } from './classify-many';
import {
  doseEventsOfPatients,
  kpiCounts,
  lastReadings,
  patientsInProgram,
  programNames,
  schedulesOfPatients,
} from './kpi.queries';
import {
  programDays,
  rolledBands,
  rolledBefore,
  settledOnRead,
  staleInRange,
  staleRows,
} from './rollup-read.queries';

type Totals = Omit<AdherenceTotals, 'adherence' | 'compliance'>;
const STATES = ['due', 'on_time', 'late', 'missed', 'skipped', 'partial', 'pending'] as const;

function empty(): Totals {
  return { due: 0, on_time: 0, late: 0, missed: 0, skipped: 0, partial: 0, pending: 0 };
}
function add(into: Totals, from: Totals) {
  for (const k of STATES) into[k] += from[k];
}
function subtract(from: Totals, what: Totals) {
  for (const k of STATES) from[k] -= what[k];
}
const percent = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part * 10_000) / whole) / 100;
function withPercents<T extends Totals>(t: T): T & { adherence: number | null; compliance: number | null } {
  return { ...t, adherence: percent(t.on_time + t.late, t.due), compliance: percent(t.on_time, t.due) };
}

/**
 * KPI of one or more programs over a period of calendar dates, each patient's doses in their own time zone,
 * as the engine decided them: added up from the daily rollup (ADR 046), where the rollup does not cover a
 * patient yet (a dose just arrived, a regimen just changed, the job not there yet) classified live by the same
 * engine as the calendars, so the KPI and the calendars never disagree. Counts of patients, devices and
 * readings come from SQL (readings over the period in the default display zone, ADR 002). One REPEATABLE
 * READ transaction: every statement reads the same rollup.
 */
export function createKpiService(deps: { db: Database; cache?: PopulationCache; now?: () => number }) {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const cache = deps.cache ?? uncached;

  /**
   * The KPI as of now, or for programs of at least the cache's size as of at most its freshness ago (ADR 077:
   * `generated_at` says when). Every request is audited, whether computed or served.
   */
  async function report(
    actor: StaffActor,
    programIds: number[],
    start: string,
    end: string,
  ): Promise<KpiReport> {
    const period = rangeOf(DEFAULT_DISPLAY_ZONE, start, end, now());
    const first = iso(period.start);
    const last = iso(period.end);
    const population = await patientsOfPrograms(db, programIds);
    const { value } = await cache.get(`kpi:${programIds.join(',')}:${first}:${last}`, population, () =>
      compute(programIds, period, first, last),
    );
    await auditView(db, {
      actorAdminId: actor.adminId,
      programId: programIds.length === 1 ? programIds[0]! : null,
      action: 'kpi.view',
      details: { programs: programIds.length, start: first, end: last },
      ip: actor.ip,
    });
    return value;
  }

  function compute(
    programIds: number[],
    period: ReturnType<typeof rangeOf>,
    first: string,
    last: string,
  ): Promise<KpiReport> {
    return db.transaction(
      async (tx) => {
        const stale = await staleInRange(tx, programIds, first, last, DEFAULT_ON_TIME_MINUTES);
        // Read after the snapshot: whatever the rollup job settled, it settled before this instant.
        const current = now();
        const daily = new Map<string, Totals>();
        const dayOf = (date: string) => {
          let day = daily.get(date);
          if (!day) {
            day = empty();
            daily.set(date, day);
          }
          return day;
        };
        let extra = 0;
        for (const r of await programDays(tx, programIds, first, last)) {
          add(dayOf(r.date), r);
          extra += r.extra;
        }
        for (const r of await staleRows(tx, stale, last)) {
          subtract(dayOf(r.date), r);
          extra -= r.extra;
        }
        for (const r of await settledOnRead(tx, programIds, first, last, current, stale)) {
          const day = dayOf(r.date);
          day.pending -= r.doses;
          day.due += r.doses;
          day[r.becomes] += r.doses;
        }
        const rolled = await rolledBands(tx, {
          programIds,
          start: first,
          end: last,
          now: current,
          stale,
          bands: ADHERENCE_BANDS,
        });
        const bands = { high: rolled.high, medium: rolled.medium, low: rolled.low };
        let withDosesDue = rolled.with_doses_due;
        const before = await rolledBefore(tx, stale, first, current);
        await classifyFrom(tx, stale, last, current, (patient, result) => {
          for (const d of result.days) add(dayOf(d.date), d);
          extra += result.extra.length;
          const base = before.get(patient.id) ?? { due: 0, taken: 0 };
          const due = base.due + result.total.due;
          if (due === 0) return;
          withDosesDue++;
          const a = percent(base.taken + result.total.on_time + result.total.late, due) ?? 0;
          if (a >= ADHERENCE_BANDS.high) bands.high++;
          else if (a >= ADHERENCE_BANDS.medium) bands.medium++;
          else bands.low++;
        });
        const total = empty();
        for (const d of daily.values()) add(total, d);
        const counts = await kpiCounts(tx, programIds, new Date(period.from), new Date(period.to));
        const programs = await programNames(tx, programIds);
        return {
          start: first,
          end: last,
          generated_at: new Date(current).toISOString(),
          programs,
          patients: {
            enrolled: counts.enrolled,
            active: counts.active,
            with_dispenser: counts.with_dispenser,
            with_doses_due: withDosesDue,
          },
          devices: {
            dispensers: counts.dispensers,
            connected: counts.connected,
            seen_24h: counts.seen_24h,
            low_battery: counts.low_battery,
          },
          doses: { ...withPercents(total), extra },
          adherence_bands: bands,
          readings: {
            measurements: counts.measurements,
            patients_measured: counts.patients_measured,
            out_of_range: counts.out_of_range,
          },
          daily: [...daily.entries()]
            .filter(([, t]) => t.due + t.pending > 0)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([date, t]) => ({ date, ...withPercents(t) })),
        };
      },
      { isolationLevel: 'repeatable read' },
    );
  }

  return {
    /**
     * The worklist's columns for a page of patients: adherence over the last days (each in their zone, the
     * same engine as the calendar), the newest reading and the open alerts. Ids outside the program are left out.
     */
    async summaries(actor: StaffActor, input: { ids: string }) {
      const ids = [...new Set(input.ids.split(',').map(Number))];
      const patients = await patientsInProgram(db, actor.program!.id, ids);
      if (patients.length === 0) return { data: [] };
      const current = now();
      const found = patients.map((p) => p.id);
      const from = new Date(current - (SUMMARY_DAYS + 3) * DAY);
      const [schedules, events, readings] = await Promise.all([
        schedulesOfPatients(db, found, from, new Date(current + DAY)),
        doseEventsOfPatients(db, found, new Date(from.getTime() - 2 * DAY), new Date(current + DAY)),
        lastReadings(db, found),
      ]);
      const reading = new Map(readings.map((r) => [r.patient_id, r]));
      const regimensOf = groupBy(schedules, (r) => r.patient_id);
      const eventsOf = groupBy(events, (e) => e.patient_id);
      return {
        data: patients.map((p) => {
          const zone = resolveDisplayZone(p.time_zone);
          const range = lastDays(zone, current, SUMMARY_DAYS);
          const result = classifyAdherence({
            regimens: (regimensOf.get(p.id) ?? []).map(toSchedule),
            events: (eventsOf.get(p.id) ?? []).map(
              (e): DoseEvent => ({
                id: e.id,
                regimenId: e.regimen_id,
                at: new Date(e.at).getTime(),
                kind: e.kind,
              }),
            ),
            zone,
            from: range.from,
            to: range.to,
            now: current,
          });
          const r = reading.get(p.id);
          return {
            patient_id: p.id,
            adherence: result.total.adherence,
            compliance: result.total.compliance,
            due: result.total.due,
            missed: result.total.missed,
            last_reading: r
              ? {
                  type: r.type,
                  value: r.value,
                  unit: r.unit,
                  measured_at: new Date(r.measured_at).toISOString(),
                }
              : null,
            open_alerts: p.open_alerts,
            escalated: p.escalated,
          };
        }),
      };
    },
    program(actor: StaffActor, input: { start: string; end: string }) {
      return report(actor, [actor.program!.id], input.start, input.end);
    },
    enterprise(actor: StaffActor, input: { start: string; end: string }) {
      return report(actor, actor.enterprise!.programIds, input.start, input.end);
    },

    /** The program KPI as a workbook: a summary sheet and the daily series. */
    async export(
      actor: StaffActor,
      input: { start: string; end: string },
    ): Promise<{ fileName: string; stream: Readable }> {
      const kpi = await report(actor, [actor.program!.id], input.start, input.end);
      const out = new PassThrough();
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
      workbook.creator = 'CareDeck';
      const summary = workbook.addWorksheet('KPI');
      summary.columns = [
        { header: 'Indicator', key: 'k', width: 34 },
        { header: 'Value', key: 'v', width: 16 },
      ];
      const rows: [string, number | string | null][] = [
        ['Program', kpi.programs.map((p) => p.name).join(', ')],
        ['Period', `${kpi.start} to ${kpi.end}`],
        ['Patients enrolled', kpi.patients.enrolled],
        ['Patients active', kpi.patients.active],
        ['Patients with a dispenser', kpi.patients.with_dispenser],
        ['Patients with doses due', kpi.patients.with_doses_due],
        ['Dispensers', kpi.devices.dispensers],
        ['Dispensers seen in the last 24 h', kpi.devices.seen_24h],
        ['Doses due', kpi.doses.due],
        ['Doses on time', kpi.doses.on_time],
        ['Doses late', kpi.doses.late],
        ['Doses missed', kpi.doses.missed],
        ['Doses skipped', kpi.doses.skipped],
        ['Extra doses', kpi.doses.extra],
        ['Adherence %', kpi.doses.adherence],
        ['Compliance %', kpi.doses.compliance],
        [`Patients at or above ${ADHERENCE_BANDS.high} %`, kpi.adherence_bands.high],
        [`Patients ${ADHERENCE_BANDS.medium}–${ADHERENCE_BANDS.high} %`, kpi.adherence_bands.medium],
        [`Patients below ${ADHERENCE_BANDS.medium} %`, kpi.adherence_bands.low],
        ['Readings', kpi.readings.measurements],
        ['Readings out of range', kpi.readings.out_of_range],
      ];
      for (const [k, v] of rows) summary.addRow({ k, v }).commit();
      summary.commit();
      const days = workbook.addWorksheet('Daily', { views: [{ state: 'frozen', ySplit: 1 }] });
      days.columns = [
        { header: 'Date', key: 'date', width: 12 },
        ...(['due', 'on_time', 'late', 'missed', 'skipped', 'adherence', 'compliance'] as const).map(
          (key) => ({
            header: key.replace('_', ' '),
            key,
            width: 12,
          }),
        ),
      ];
      for (const d of kpi.daily) days.addRow(d).commit();
      days.commit();
      void workbook.commit();
      return { fileName: kpiFileName(kpi.start, kpi.end), stream: out };
    },
  };
}

export type KpiService = ReturnType<typeof createKpiService>;
