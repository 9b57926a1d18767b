import {
  type AdherenceReport,
  CHART_MAX_POINTS,
  chartBucketSeconds,
  DEFAULT_MEASUREMENT_TYPES,
  DEFAULT_VIEW_DAYS,
  type GroupedMeasurements,
  type MeasurementTypeValue,
  pageOf,
} from '@caredeck/contracts';
import {
  type AdherenceTotals,
  classifyAdherence,
  DEFAULT_ON_TIME_MINUTES,
  eventLookbehind,
  resolveDisplayZone,
  type ScheduleRegimen,
} from '@caredeck/domain';
import type { StaffActor } from '../../platform/access/actor';
import { auditView } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import {
  dailyInhalerUse,
  dailyMeasurementSums,
  dailyUsages,
  groupedMeasurementsOf,
  latestMeasurements,
  measurementsOf,
  measurementsPage,
  type PatientContext,
  patientContext,
  podsOf,
  type ScheduleRow,
  type UsageRow,
  usagesOf,
} from './adherence.queries';
import { addDays, DAY, type DateRange, iso, lastDays, rangeOf } from './calendar-range';
import { doseEventsOfPatients, schedulesOfPatients } from './kpi.queries';

export function toSchedule(r: ScheduleRow): ScheduleRegimen {
  return {
    id: r.id,
    repeat: r.repeat,
    interval: r.interval,
    times: r.times,
    timeCascade: r.time_cascade,
    lockoutMinutes: r.lockout_time,
    unlockBeforeMinutes: r.unlock_before,
    scheduledAt: new Date(r.scheduled_at).getTime(),
    endAt: r.end_at === null ? null : new Date(r.end_at).getTime(),
    multiPod: r.multi_pod,
    num: r.num,
  };
}

const at = (t: number) => new Date(t).toISOString();
const stamp = (v: string | Date) => new Date(v).toISOString();

export function createAdherenceService(deps: { db: Database; now?: () => number }) {
  const { db } = deps;
  const now = deps.now ?? Date.now;

  async function patientOf(
    actor: StaffActor,
    patientId: number,
    inPathProgram: boolean,
  ): Promise<PatientContext> {
    const programId = inPathProgram ? (actor.program?.id ?? null) : null;
    const patient = await patientContext(db, patientId, programId);
    // Object routes resolved the program from the patient already; a program route checks it is the patient's.
    if (!patient) throw AppError.notFound('Patient not found');
    return patient;
  }

  async function report(
    actor: StaffActor,
    patient: PatientContext,
    range: DateRange,
  ): Promise<AdherenceReport> {
    const current = now();
    const from = new Date(range.from - 2 * DAY);
    // Regimens starting just after the range too: a window opens early, and an event taken in it is that
    // dose's, never an extra one (whatever the range: the KPI's rollup adds days up, ADR 046).
    const schedules = (
      await schedulesOfPatients(db, [patient.id], from, new Date(range.to + 2 * DAY), {
        asNeededAlways: true,
      })
    ).map((r) => ({
      row: r,
      schedule: toSchedule(r),
    }));
    const regimens = schedules.map((s) => s.schedule);
    const lookbehind = eventLookbehind(regimens);
    const events = await doseEventsOfPatients(
      db,
      [patient.id],
      new Date(range.from - lookbehind),
      new Date(range.to + 2 * DAY),
    );
    const sources = new Map(events.map((e) => [e.id, e.source]));
    const result = classifyAdherence({
      regimens,
      events: events.map((e) => ({
        id: e.id,
        regimenId: e.regimen_id,
        at: new Date(e.at).getTime(),
        kind: e.kind,
      })),
      zone: range.zone,
      from: range.from,
      to: range.to,
      now: current,
      onTimeMinutes: DEFAULT_ON_TIME_MINUTES,
    });
    await auditView(db, {
      actorAdminId: actor.adminId,
      programId: patient.program_id,
      action: 'patient.adherence.view',
      subjectType: 'patient',
      subjectId: patient.id,
      details: { start: iso(range.start), end: iso(range.end) },
      ip: actor.ip,
    });
    const eventView = (e: {
      id: number | string;
      regimenId: number;
      at: number;
      kind: 'taken' | 'skipped';
    }) => ({
      id: Number(e.id),
      regimen_id: e.regimenId,
      at: at(e.at),
      kind: e.kind,
      source: sources.get(Number(e.id)) ?? 'manual',
    });
    return {
      patient_id: patient.id,
      time_zone: range.zone,
      start: iso(range.start),
      end: iso(range.end),
      on_time_minutes: DEFAULT_ON_TIME_MINUTES,
      generated_at: at(current),
      total: result.total,
      regimens: schedules
        .filter((s) => s.row.repeat !== 'as_needed')
        .map((s) => ({
          regimen_id: s.row.id,
          name: s.row.name,
          ...(result.regimens[s.row.id] as AdherenceTotals),
        }))
        .filter((r) => r.due + r.pending > 0),
      days: result.days,
      doses: result.doses.map((d) => ({
        regimen_id: d.regimenId,
        date: d.date,
        time: d.time,
        scheduled_at: at(d.scheduledAt),
        window_open: at(d.windowOpen),
        window_close: at(d.windowClose),
        state: d.state,
        taken_at: d.takenAt === null ? null : at(d.takenAt),
        event_ids: d.eventIds.map(Number),
      })),
      extra: result.extra.map(eventView),
      as_needed: result.asNeeded.map(eventView),
    };
  }

  const zoneOf = (p: PatientContext) => resolveDisplayZone(p.time_zone);

  const usageView = (u: UsageRow) => ({
    id: u.id,
    regimen_id: u.regimen_id,
    regimen_name: u.regimen_name,
    pod_id: u.pod_id,
    taken_at: stamp(u.taken_at),
    servings: u.servings,
    kind: u.kind,
    source: u.source,
  });

  /** A program-path view: the patient in the path program, the range in the patient's zone. */
  async function rangeView(actor: StaffActor, patientId: number, start: string, end: string | null) {
    const patient = await patientOf(actor, patientId, true);
    const zone = zoneOf(patient);
    const range = rangeOf(zone, start, end, now());
    const head = { start: iso(range.start), end: iso(range.end), time_zone: zone };
    return { patient, zone, range, head, from: new Date(range.from), to: new Date(range.to) };
  }

  /** Every local date of a range, for series without gaps. */
  function datesOf(range: DateRange): string[] {
    const out: string[] = [];
    for (let d = range.start; iso(d) <= iso(range.end); d = addDays(d, 1)) out.push(iso(d));
    return out;
  }

  return {
    /** `programs/{p}/users/{id}/adherence|compliance/{start}[/{end}]`: the end defaults to today. */
    async inProgram(actor: StaffActor, input: { patientId: number; start: string; end: string | null }) {
      const patient = await patientOf(actor, input.patientId, true);
      return report(actor, patient, rangeOf(zoneOf(patient), input.start, input.end, now()));
    },
    /** `users/{id}/adherence[/{start}/{end}]`: the last 30 days without a range. */
    async ofPatient(actor: StaffActor, input: { patientId: number; start?: string; end?: string }) {
      const patient = await patientOf(actor, input.patientId, false);
      const zone = zoneOf(patient);
      const range =
        input.start && input.end
          ? rangeOf(zone, input.start, input.end, now())
          : lastDays(zone, now(), DEFAULT_VIEW_DAYS);
      return report(actor, patient, range);
    },
    async graph(actor: StaffActor, input: { patientId: number }) {
      const patient = await patientOf(actor, input.patientId, false);
      const full = await report(actor, patient, lastDays(zoneOf(patient), now(), DEFAULT_VIEW_DAYS));
      return {
        patient_id: full.patient_id,
        start: full.start,
        end: full.end,
        total: full.total,
        days: full.days,
      };
    },

    async usages(actor: StaffActor, input: { patientId: number; start: string; end: string }) {
      const v = await rangeView(actor, input.patientId, input.start, input.end);
      const [usages, daily, pods] = await Promise.all([
        usagesOf(db, v.patient.id, v.from, v.to),
        dailyUsages(db, v.patient.id, v.from, v.to, v.zone),
        podsOf(db, v.patient.id),
      ]);
      return {
        ...v.head,
        data: usages.rows.map(usageView),
        data_total: usages.total,
        daily,
        pods: pods.rows,
        pods_total: pods.total,
      };
    },

    /** Inhaler use: scheduled (controller) and as-needed (rescue) puffs per day. */
    async inhalerUsages(actor: StaffActor, input: { patientId: number; start: string; end: string }) {
      const v = await rangeView(actor, input.patientId, input.start, input.end);
      // The per-day figures are summed in SQL over every dose, not over the listed ones (issue 27).
      const [usages, sums] = await Promise.all([
        usagesOf(db, v.patient.id, v.from, v.to, 'inhaler'),
        dailyInhalerUse(db, v.patient.id, v.from, v.to, v.zone),
      ]);
      const perDay = new Map(datesOf(v.range).map((date) => [date, { date, controller: 0, rescue: 0 }]));
      for (const s of sums) {
        const day = perDay.get(s.date);
        if (day) Object.assign(day, { controller: s.controller, rescue: s.rescue });
      }
      const data = usages.rows.map((u) => ({
        ...usageView(u),
        use: u.as_needed ? ('rescue' as const) : ('controller' as const),
      }));
      return { ...v.head, data, data_total: usages.total, daily: [...perDay.values()] };
    },

    async activities(actor: StaffActor, input: { patientId: number; start: string; end: string | null }) {
      const v = await rangeView(actor, input.patientId, input.start, input.end);
      const sums = await dailyMeasurementSums(db, v.patient.id, v.from, v.to, v.zone, [
        'steps',
        'active_minutes',
      ]);
      const perDay = new Map(datesOf(v.range).map((date) => [date, { date, steps: 0, active_minutes: 0 }]));
      const measured = new Set<string>();
      for (const s of sums) {
        const day = perDay.get(s.date);
        if (!day) continue;
        measured.add(s.date);
        if (s.type === 'steps') day.steps = s.total;
        else day.active_minutes = s.total;
      }
      const data = [...perDay.values()];
      return {
        ...v.head,
        data,
        totals: {
          steps: data.reduce((n, d) => n + d.steps, 0),
          active_minutes: data.reduce((n, d) => n + d.active_minutes, 0),
          days_measured: measured.size,
        },
      };
    },

    async sleep(actor: StaffActor, input: { patientId: number; start: string; end: string | null }) {
      const v = await rangeView(actor, input.patientId, input.start, input.end);
      const sums = await dailyMeasurementSums(db, v.patient.id, v.from, v.to, v.zone, ['sleep']);
      const data = sums.map((s) => ({ date: s.date, minutes: s.total }));
      const average = data.length ? Math.round(data.reduce((n, d) => n + d.minutes, 0) / data.length) : null;
      return { ...v.head, data, average_minutes: average };
    },

    async measurementsGrouped(
      actor: StaffActor,
      input: { patientId: number; start: string; end: string; types?: MeasurementTypeValue[] },
    ) {
      const patient = await patientOf(actor, input.patientId, true);
      const range = rangeOf(zoneOf(patient), input.start, input.end, now());
      const types = input.types?.length ? input.types : DEFAULT_MEASUREMENT_TYPES;
      const bucketSeconds = chartBucketSeconds((range.to - range.from) / 1000);
      const rows = await groupedMeasurementsOf(
        db,
        patient.id,
        new Date(range.from),
        new Date(range.to),
        types,
        bucketSeconds,
        CHART_MAX_POINTS,
      );
      const answer: GroupedMeasurements = { data: {}, units: {}, series: {} };
      for (const t of types) {
        answer.data[t] = [];
        answer.series[t] = { readings: 0, downsampled: false, bucket_seconds: null };
      }
      for (const r of rows) {
        answer.data[r.type]?.push(
          r.binned
            ? { value: r.value, measured_at: stamp(r.at), min: r.min!, max: r.max!, count: r.count! }
            : { value: r.value, measured_at: stamp(r.at) },
        );
        answer.units[r.type] = r.unit;
        answer.series[r.type] = {
          readings: r.readings,
          downsampled: r.binned,
          bucket_seconds: r.binned ? bucketSeconds : null,
        };
      }
      return answer;
    },
    async measurementsByType(
      actor: StaffActor,
      input: { patientId: number; type: MeasurementTypeValue; page: number; per_page: number },
    ) {
      const patient = await patientOf(actor, input.patientId, false);
      const { rows, total } = await measurementsPage(db, patient.id, input.type, input);
      return pageOf(
        rows.map((r) => ({ ...r, type: r.type as MeasurementTypeValue, measured_at: stamp(r.measured_at) })),
        input,
        total,
      );
    },
    async patientAll(actor: StaffActor, input: { patientId: number }) {
      const patient = await patientOf(actor, input.patientId, false);
      const { rows, total, devices } = await latestMeasurements(db, patient.id, 1000);
      await auditView(db, {
        actorAdminId: actor.adminId,
        programId: patient.program_id,
        action: 'patient.measurements.view',
        subjectType: 'patient',
        subjectId: patient.id,
        ip: actor.ip,
      });
      return {
        patient_id: patient.id,
        total,
        data: rows.map((r) => ({
          ...r,
          type: r.type as MeasurementTypeValue,
          measured_at: stamp(r.measured_at),
        })),
        devices,
      };
    },
    async measurementsRange(
      actor: StaffActor,
      input: {
        patientId: number;
        start: string;
        end: string;
        types?: MeasurementTypeValue[];
        device_type?: string;
      },
    ) {
      const patient = await patientOf(actor, input.patientId, false);
      const range = rangeOf(zoneOf(patient), input.start, input.end, now());
      const { rows, total } = await measurementsOf(db, patient.id, new Date(range.from), new Date(range.to), {
        types: input.types,
        deviceKind: input.device_type,
      });
      return {
        total,
        data: rows.map((r) => ({
          ...r,
          type: r.type as MeasurementTypeValue,
          measured_at: stamp(r.measured_at),
        })),
      };
    },
  };
}

export type AdherenceService = ReturnType<typeof createAdherenceService>;
