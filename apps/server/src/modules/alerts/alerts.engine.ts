import { setImmediate as nextTurn } from 'node:timers/promises';
import { ALERTS_CHANGED_EVENT, normalisePhone } from '@caredeck/contracts';
import {
  type AlertSettings,
  classifyAdherence,
  DEFAULT_ALERT_SETTINGS,
  type DoseEvent,
  effectiveSettings,
  evaluateVitals,
  groupBy,
  offlineAfterMs,
  resolveDisplayZone,
  VITAL_ALERT_READINGS,
  verdictSummary,
} from '@caredeck/domain';
import type { FastifyBaseLogger } from 'fastify';
import { audit } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import { retryConflicts } from '../../platform/db/retry';
import { safeErrorDetails } from '../../platform/http/errors';
import { singleFlight } from '../../platform/jobs/repeat';
import { timeSlicer } from '../../platform/jobs/yield';
import type { Realtime } from '../../platform/realtime/realtime';
import { toSchedule } from '../adherence/adherence.service';
import { DAY, lastDays } from '../adherence/calendar-range';
import { doseEventsOfPatients, schedulesOfPatients } from '../adherence/kpi.queries';
import { activeStageOf, addPatients, movePatient, stagesOfRules } from '../pipelines/pipelines.queries';
import { queueSms } from '../sms/sms.queries';
import { SMS_EVENT } from '../sms/sms.service';
import { surveySignals } from '../surveys/surveys.queries';
import {
  allProgramIds,
  applyVerdicts,
  dispensersOfPrograms,
  escalateDue,
  measuringPatients,
  patientsMeasuredSince,
  patientsOf,
  patientsWithDoseChanges,
  patientsWithRegimens,
  podsOfPrograms,
  recordSignals,
  settingsOfPatients,
  unresolvedOf,
  type Verdict,
  type VerdictChange,
  vitalReadings,
} from './alerts.queries';
import { activeRules, adminsWithRole, patientsToText } from './rules.queries';
import { ruleHolds, ruleValues } from './rules.values';

const CHUNK = 500;
const VITAL_TYPES = [...new Set(Object.values(VITAL_ALERT_READINGS).flat())];
const iso = (t: number | string) => new Date(t).toISOString();
const startOfDay = (t: number) => Math.floor(t / DAY) * DAY;

export type SweepReport = { verdicts: number; changes: number; escalated: number };

/**
 * The alert engine (docs/alerts.md). Vital-sign alerts are evaluated as readings arrive: the gateway
 * marks the patients of each committed batch, and after a short gathering wait their readings are
 * evaluated together (a few statements for any number of patients). Absence-type alerts (disconnected
 * dispensers, missed readings, low pods, missed and extra doses, low adherence) and escalation timers
 * are swept on a schedule. Every verdict goes through one statement that opens, counts or resolves
 * alerts; the programs whose board changed get a live `alerts.changed`.
 */
export function createAlertEngine(deps: {
  db: Database;
  realtime: Realtime;
  log: FastifyBaseLogger;
  sweepMs: number;
  evaluateWaitMs: number;
  now?: () => number;
}) {
  const { db, realtime, log } = deps;
  const now = deps.now ?? Date.now;
  const dirty = new Set<number>();
  let timer: NodeJS.Timeout | null = null;
  let sweeper: NodeJS.Timeout | null = null;
  let firstSweep: NodeJS.Timeout | null = null;
  let lastSweep: number | null = null;
  /** One evaluation at a time: verdicts of one patient never race each other. */
  let chain: Promise<unknown> = Promise.resolve();
  /**
   * What the last sweep knew of each patient with a regimen (this process's memory, lost on a restart: the
   * first sweep after a start classifies everyone): the inputs' fingerprint (zone, regimens, settings) and
   * when the patient's adherence next changes with time alone (a dose window closing, the local day turning).
   * A sweep classifies only the patients whose time came, whose inputs changed, or whose doses did (ADR 068).
   */
  const watch = new Map<number, { fingerprint: string; nextCheckAt: number }>();
  let watchedAt: string | null = null;
  const stats = {
    evaluations: 0,
    patientsEvaluated: 0,
    verdicts: 0,
    changes: 0,
    sweeps: 0,
    /** Patients with a regimen classified by the last sweep, and those it left as they were. */
    adherenceClassified: 0,
    adherenceUnchanged: 0,
    failures: 0,
    lastSweepAt: null as number | null,
    sweepMs: deps.sweepMs,
  };

  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work);
    chain = next.catch(() => {});
    return next;
  };

  async function settingsFor(
    patientIds: number[],
  ): Promise<Map<number, AlertSettings & { source: Record<string, string> }>> {
    const rows = await settingsOfPatients(db, patientIds);
    const levels = new Map<
      number,
      { level: 'program' | 'cohort' | 'patient'; settings: Partial<AlertSettings> }[]
    >();
    for (const r of rows) {
      const list = levels.get(r.patient_id) ?? [];
      list.push({ level: r.level, settings: r.settings as Partial<AlertSettings> });
      levels.set(r.patient_id, list);
    }
    const out = new Map<number, AlertSettings & { source: Record<string, string> }>();
    const slice = timeSlicer();
    for (const id of patientIds) {
      await slice();
      const { settings, source } = effectiveSettings(
        (levels.get(id) ?? []).map((r) => ({
          level: r.level,
          settings: r.settings as Partial<AlertSettings>,
        })),
      );
      out.set(id, { ...settings, source });
    }
    return out;
  }

  function notify(changes: VerdictChange[]): void {
    const byProgram = new Map<number, Set<string>>();
    for (const c of changes) {
      if (c.snoozed) continue;
      const types = byProgram.get(c.program_id) ?? new Set<string>();
      types.add(c.type);
      byProgram.set(c.program_id, types);
    }
    for (const [programId, types] of byProgram)
      realtime.toProgram(programId, ALERTS_CHANGED_EVENT, { types: [...types] });
  }

  /**
   * Writes the verdicts that change something: a condition that holds with evidence newer than its open
   * alert's (or with no open alert), and a cleared condition with an open alert. The rest (the steady
   * state: the same evidence evaluated again, normal readings of patients without alerts) never reach the
   * write statement.
   */
  async function apply(verdicts: Verdict[]): Promise<VerdictChange[]> {
    if (verdicts.length === 0) return [];
    const open = await unresolvedOf(db, [...new Set(verdicts.map((v) => v.patientId))]);
    const changing = verdicts.filter((v) => {
      const last = open.get(`${v.patientId}:${v.type}:${v.key}`);
      return v.breached ? last === undefined || v.at > last : last !== undefined && v.at >= last;
    });
    stats.verdicts += verdicts.length;
    if (changing.length === 0) return [];
    // The kept alert counts (ADR 057) lock each touched patient's row: another writer of the same patients
    // (a sweep beside a reading's evaluation) can meet them in the other order; PostgreSQL then stops one of
    // the two, which is written again.
    const changes = await retryConflicts(() => db.transaction((tx) => applyVerdicts(tx, changing)));
    stats.changes += changes.length;
    notify(changes);
    return changes;
  }

  /** Vital-sign verdicts of the patients from their newest readings. */
  async function vitalsOf(patientIds: number[]): Promise<Verdict[]> {
    const verdicts: Verdict[] = [];
    for (let i = 0; i < patientIds.length; i += CHUNK) {
      const patients = await patientsOf(db, patientIds.slice(i, i + CHUNK));
      if (patients.length === 0) continue;
      const settings = await settingsFor(patients.map((p) => p.id));
      const rows = await vitalReadings(
        db,
        patients.map((p) => ({ id: p.id, windowMinutes: settings.get(p.id)!.window_minutes })),
        VITAL_TYPES,
      );
      const byPatient = groupBy(rows, (r) => r.patient_id);
      for (const p of patients) {
        const s = settings.get(p.id)!;
        const readings = byPatient.get(p.id) ?? [];
        const unit = new Map(readings.map((r) => [r.type, r.unit]));
        for (const v of evaluateVitals(
          readings.map((r) => ({ type: r.type, value: r.value, at: new Date(r.at).getTime() })),
          s,
        )) {
          const keys = v.checks.map((c) => c.measure);
          verdicts.push({
            patientId: p.id,
            programId: p.program_id,
            type: v.type,
            key: '',
            breached: v.breached,
            at: v.at,
            summary: verdictSummary(v),
            reason: {
              summary: verdictSummary(v),
              checks: v.checks,
              readings: v.readings.map((r) => ({
                type: r.type,
                value: r.value,
                unit: unit.get(r.type),
                at: iso(r.at),
              })),
              settings_source: Object.fromEntries(
                Object.entries(s.source).filter(
                  ([k]) => keys.some((m) => k.startsWith(m)) || k === 'window_minutes',
                ),
              ),
            },
          });
        }
        // A reading of any kind ends a missed-readings alert.
        if (readings.length > 0)
          verdicts.push({
            patientId: p.id,
            programId: p.program_id,
            type: 'missed_physiological_readings_alerts',
            key: '',
            breached: false,
            at: Math.max(...readings.map((r) => new Date(r.at).getTime())),
            summary: 'A reading arrived.',
            reason: { summary: 'A reading arrived.' },
          });
      }
    }
    return verdicts;
  }

  async function evaluateDirty(): Promise<void> {
    timer = null;
    if (dirty.size === 0) return;
    const ids = [...dirty];
    dirty.clear();
    await serial(async () => {
      stats.evaluations++;
      stats.patientsEvaluated += ids.length;
      await apply(await vitalsOf(ids));
    }).catch((err) => {
      stats.failures++;
      log.error({ err: safeErrorDetails(err) }, 'alert evaluation failed');
    });
  }

  /** Absence and state alerts of the devices: disconnected dispensers, missed readings, low pods. */
  async function deviceVerdicts(programIds: number[], current: number): Promise<Verdict[]> {
    const verdicts: Verdict[] = [];
    const [dispensers, measuring, pods] = await Promise.all([
      dispensersOfPrograms(db, programIds),
      measuringPatients(db, programIds),
      podsOfPrograms(db, programIds),
    ]);
    const patientIds = [
      ...new Set([
        ...dispensers.map((d) => d.patient_id),
        ...measuring.map((m) => m.patient_id),
        ...pods.map((p) => p.patient_id),
      ]),
    ];
    const settings = await settingsFor(patientIds);
    const slice = timeSlicer();
    for (const d of dispensers) {
      await slice();
      const s = settings.get(d.patient_id)!;
      const since = new Date(d.since).getTime();
      const limit = offlineAfterMs(s);
      const offline = !d.connected && current - since > limit;
      const minutes = Math.round(limit / 60_000);
      const summary = offline
        ? d.last_seen_at
          ? `Dispenser ${d.serial} silent since ${iso(d.last_seen_at)} (offline after ${minutes} min).`
          : `Dispenser ${d.serial} has never reported (offline after ${minutes} min).`
        : `Dispenser ${d.serial} is back online.`;
      verdicts.push({
        patientId: d.patient_id,
        programId: d.program_id,
        type: 'disconnected_dispensers',
        key: String(d.id),
        breached: offline,
        at: since,
        summary,
        reason: {
          summary,
          device: { id: d.id, serial: d.serial, last_seen_at: d.last_seen_at ? iso(d.last_seen_at) : null },
          settings_source: {
            offline_minutes: s.source.offline_minutes!,
            heartbeat_minutes: s.source.heartbeat_minutes!,
          },
        },
      });
    }
    for (const m of measuring) {
      await slice();
      const s = settings.get(m.patient_id)!;
      const last = m.last_reading_at ? new Date(m.last_reading_at).getTime() : null;
      const since = last ?? new Date(m.since).getTime();
      const gap = s.reading_gap_hours * 3600_000;
      // A reading within the gap ends the alert (vital signs end it as they arrive; weight or glucose here).
      const missing = current - since > gap;
      const summary = !missing
        ? 'A reading arrived.'
        : last
          ? `No reading for ${Math.floor((current - last) / 3600_000)} hours (expected within ${s.reading_gap_hours}).`
          : `No reading since the device was handed out (expected within ${s.reading_gap_hours} hours).`;
      verdicts.push({
        patientId: m.patient_id,
        programId: m.program_id,
        type: 'missed_physiological_readings_alerts',
        key: '',
        breached: missing,
        at: since,
        summary,
        reason: {
          summary,
          last_reading_at: m.last_reading_at ? iso(m.last_reading_at) : null,
          settings_source: { reading_gap_hours: s.source.reading_gap_hours! },
        },
      });
    }
    const podsOf = groupBy(pods, (p) => p.patient_id);
    for (const [patientId, list] of podsOf) {
      await slice();
      const s = settings.get(patientId)!;
      const low = list.filter((p) => p.servings_remaining <= s.low_servings);
      const at = Math.max(...list.map((p) => new Date(p.last_used_at).getTime()));
      const summary =
        low.length > 0
          ? `${low.length} pod${low.length === 1 ? '' : 's'} with ${s.low_servings} servings or fewer left.`
          : 'Pods refilled.';
      verdicts.push({
        patientId,
        programId: list[0]!.program_id,
        type: 'low_medication_pods',
        key: '',
        breached: low.length > 0,
        at,
        summary,
        reason: {
          summary,
          pods: low.map((p) => ({ barcode: p.barcode, servings_remaining: p.servings_remaining })),
          settings_source: { low_servings: s.source.low_servings! },
        },
      });
    }
    return verdicts;
  }

  /** Missed doses, extra doses and low adherence, from the adherence engine, a chunk of patients at a time. */
  async function adherenceVerdicts(programIds: number[], current: number): Promise<Verdict[]> {
    const verdicts: Verdict[] = [];
    // Doses changed since the last sweep, by the database's clock (the rollup stamps its rows with it).
    const { changed, dbTime } = await patientsWithDoseChanges(db, programIds, watchedAt);
    const seen = new Set<number>();
    const slice = timeSlicer();
    let classified = 0;
    let unchanged = 0;
    for (let after = 0; ; ) {
      const chunk = await patientsWithRegimens(db, programIds, after, CHUNK);
      if (chunk.length === 0) break;
      after = chunk[chunk.length - 1]!.id;
      const settings = await settingsFor(chunk.map((p) => p.id));
      const fingerprints = new Map(
        chunk.map((p) => [p.id, `${p.time_zone}|${p.regimens}|${JSON.stringify(settings.get(p.id))}`]),
      );
      const patients = chunk.filter((p) => {
        seen.add(p.id);
        const known = watch.get(p.id);
        const due =
          !known ||
          changed === null ||
          changed.has(p.id) ||
          known.nextCheckAt <= current ||
          known.fingerprint !== fingerprints.get(p.id);
        if (!due) unchanged++;
        return due;
      });
      if (patients.length === 0) continue;
      classified += patients.length;
      const ids = patients.map((p) => p.id);
      const longest = Math.max(...patients.map((p) => settings.get(p.id)!.adherence_days));
      const from = new Date(current - (longest + 3) * DAY);
      const [schedules, events] = await Promise.all([
        schedulesOfPatients(db, ids, from, new Date(current + DAY)),
        doseEventsOfPatients(db, ids, new Date(from.getTime() - 2 * DAY), new Date(current + DAY)),
      ]);
      const schedulesOf = groupBy(schedules, (r) => r.patient_id);
      const eventsOf = groupBy(events, (e) => e.patient_id);
      for (const p of patients) {
        await slice();
        const s = settings.get(p.id)!;
        const rows = schedulesOf.get(p.id) ?? [];
        const zone = resolveDisplayZone(p.time_zone);
        const range = lastDays(zone, current, s.adherence_days);
        if (rows.length === 0) {
          watch.set(p.id, { fingerprint: fingerprints.get(p.id)!, nextCheckAt: range.to });
          continue;
        }
        const result = classifyAdherence({
          regimens: rows.map(toSchedule),
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
        // Nothing changes with time alone before the next open window closes or the local day turns.
        const nextCheckAt = result.doses.reduce(
          (next, d) =>
            d.state === 'pending' && d.windowClose > current ? Math.min(next, d.windowClose) : next,
          range.to,
        );
        watch.set(p.id, { fingerprint: fingerprints.get(p.id)!, nextCheckAt });
        const base = { patientId: p.id, programId: p.program_id };
        for (const r of rows) {
          const closed = result.doses
            .filter((d) => d.regimenId === r.id && d.state !== 'pending' && d.windowClose <= current)
            .sort((a, b) => a.scheduledAt - b.scheduledAt);
          const last = closed[closed.length - 1];
          if (last) {
            const missed = closed.filter((d) => d.state === 'missed');
            const summary =
              last.state === 'missed'
                ? `Missed the ${last.time} dose of ${r.name} on ${last.date}${missed.length > 1 ? ` (${missed.length} missed in ${s.adherence_days} days)` : ''}.`
                : `Took the ${last.time} dose of ${r.name} on ${last.date}.`;
            verdicts.push({
              ...base,
              type: r.type === 'inhaler' ? 'missed_inhaler_doses' : 'missed_doses',
              key: String(r.id),
              breached: last.state === 'missed',
              at: last.scheduledAt,
              summary,
              reason: {
                summary,
                regimen: { id: r.id, name: r.name },
                doses: missed.slice(-10).map((d) => ({ expected_at: iso(d.scheduledAt), taken_at: null })),
              },
            });
          }
          const extra = result.extra.filter((e) => e.regimenId === r.id && e.at > current - DAY);
          if (extra.length > 0) {
            const summary = `${extra.length} extra dose${extra.length === 1 ? '' : 's'} of ${r.name} in the last 24 hours.`;
            verdicts.push({
              ...base,
              type: 'extra_doses_alerts',
              key: String(r.id),
              breached: true,
              at: Math.max(...extra.map((e) => e.at)),
              summary,
              reason: {
                summary,
                regimen: { id: r.id, name: r.name },
                doses: extra.map((e) => ({ expected_at: null, taken_at: iso(e.at) })),
              },
            });
          }
        }
        // Adherence of all regimens, of the inhalers, and of the regimens a device dispenses.
        const subsets: [string, (r: (typeof rows)[number]) => boolean][] = [
          ['low_adherence', () => true],
          ['low_adherence_inhaler', (r) => r.type === 'inhaler'],
          ['low_adherence_device', (r) => r.type === 'medesto-device' || (r.device_serial ?? null) !== null],
        ];
        for (const [type, member] of subsets) {
          const chosen = rows.filter(member);
          const due = chosen.reduce((n, r) => n + (result.regimens[r.id]?.due ?? 0), 0);
          if (due === 0) continue;
          const taken = chosen.reduce(
            (n, r) => n + (result.regimens[r.id]?.on_time ?? 0) + (result.regimens[r.id]?.late ?? 0),
            0,
          );
          const adherence = Math.round((taken / due) * 10_000) / 100;
          const low = adherence < s.low_adherence;
          const summary = `Adherence ${adherence} % over ${s.adherence_days} days (${low ? 'below' : 'at or above'} ${s.low_adherence} %).`;
          verdicts.push({
            ...base,
            type,
            key: '',
            breached: low,
            at: range.from,
            summary,
            reason: {
              summary,
              adherence,
              settings_source: {
                low_adherence: s.source.low_adherence!,
                adherence_days: s.source.adherence_days!,
              },
            },
          });
        }
        // The average of each medication's own adherence (docs/alerts.md): one medication left aside
        // shows even when a more frequent one keeps the pooled figure up.
        const perRegimen = rows.flatMap((r) => {
          const a = result.regimens[r.id];
          if (!a || a.due === 0) return [];
          return [{ id: r.id, name: r.name, adherence: ((a.on_time + a.late) / a.due) * 100 }];
        });
        if (perRegimen.length > 0) {
          const average =
            Math.round((perRegimen.reduce((n, r) => n + r.adherence, 0) / perRegimen.length) * 100) / 100;
          const low = average < s.low_adherence;
          const lowest = perRegimen.reduce((a, b) => (b.adherence < a.adherence ? b : a));
          const summary = `Average adherence of ${perRegimen.length} medication${perRegimen.length === 1 ? '' : 's'} ${average} % over ${s.adherence_days} days (${low ? 'below' : 'at or above'} ${s.low_adherence} %); lowest ${lowest.name} ${Math.round(lowest.adherence * 100) / 100} %.`;
          verdicts.push({
            ...base,
            type: 'low_adherence_average',
            key: '',
            breached: low,
            at: range.from,
            summary,
            reason: {
              summary,
              adherence: average,
              medications: perRegimen.map((r) => ({
                regimen: { id: r.id, name: r.name },
                adherence: Math.round(r.adherence * 100) / 100,
              })),
              settings_source: {
                low_adherence: s.source.low_adherence!,
                adherence_days: s.source.adherence_days!,
              },
            },
          });
        }
      }
    }
    // Patients without a regimen any more (or deactivated) are forgotten; one with a new regimen is new.
    for (const id of watch.keys()) if (!seen.has(id)) watch.delete(id);
    watchedAt = dbTime;
    stats.adherenceClassified = classified;
    stats.adherenceUnchanged = unchanged;
    return verdicts;
  }

  /** Signals of the patient record (manual doses, schedule changes, consent, caregivers, notifications off). */
  async function recordVerdicts(programIds: number[]): Promise<Verdict[]> {
    const summaries: Record<string, (count: number, breached: boolean) => string> = {
      manual_doses_notications: (n) =>
        `${n} dose${n === 1 ? '' : 's'} recorded by hand in the last 24 hours.`,
      schedule_changed_alerts: (n) =>
        `The dispenser schedule was changed ${n === 1 ? 'once' : `${n} times`} in the last 24 hours.`,
      consented_users_alerts: () => 'The patient gave consent in the last 7 days.',
      caregivers_connected: (n) => `${n} caregiver${n === 1 ? '' : 's'} connected in the last 7 days.`,
      text_messages: (n, unread) =>
        unread
          ? `${n} unread text${n === 1 ? '' : 's'} from the patient.`
          : 'The texts from the patient were read.',
      follow_ups_pending: (n, due) =>
        due
          ? `${n} follow-up${n === 1 ? '' : 's'} due and not completed.`
          : 'The follow-ups due are completed or moved.',
      turned_off_notifications_alerts: (_n, on) =>
        on ? 'The patient turned every notification channel off.' : 'A notification channel is on again.',
    };
    const verdicts: Verdict[] = [];
    const slice = timeSlicer();
    for (const r of await recordSignals(db, programIds)) {
      await slice();
      const summary = summaries[r.type]!(r.count, r.breached);
      verdicts.push({
        patientId: r.patient_id,
        programId: r.program_id,
        type: r.type,
        key: '',
        breached: r.breached,
        at: new Date(r.at).getTime(),
        summary,
        reason: { summary },
      });
    }
    return verdicts;
  }

  /** Overdue assessments and flagged completed surveys (docs/alerts.md; ADR 036). */
  async function surveyVerdicts(programIds: number[]): Promise<Verdict[]> {
    return (await surveySignals(db, programIds)).map((r) => {
      const summary =
        r.type === 'pending_assessments_alerts'
          ? r.breached
            ? `${r.survey} not completed; it was due on ${r.due_at!.slice(0, 10)}.`
            : `${r.survey} completed or unassigned.`
          : `${r.survey} completed with a score of ${r.score}: ${r.triggers
              .map((t) =>
                t.kind === 'score'
                  ? `score ${t.value} ≥ ${t.threshold}`
                  : `"${t.question}" ${t.value} ≥ ${t.threshold}`,
              )
              .join('; ')}.`;
      return {
        patientId: r.patient_id,
        programId: r.program_id,
        type: r.type,
        key: r.key,
        breached: r.breached,
        at: new Date(r.at).getTime(),
        summary,
        reason: { summary },
      };
    });
  }

  /** Verdicts of the programs' active rules; a rule's alerts carry its key `rule:{id}` and explain it. */
  async function ruleVerdicts(programIds: number[], current: number): Promise<Verdict[]> {
    const verdicts: Verdict[] = [];
    for (const rule of await activeRules(db, programIds)) {
      const c = rule.criterion;
      for (const v of await ruleValues(db, rule, current)) {
        const breached = ruleHolds(rule, v.value);
        const summary = `${rule.name}: ${rule.observable} ${v.value} ${breached ? c.comparison : `not ${c.comparison}`} ${c.value}`;
        verdicts.push({
          patientId: v.patient_id,
          programId: rule.program_id,
          type: rule.outcome.alert_type,
          key: `rule:${rule.id}`,
          breached,
          // Absence and adherence values change with time alone: their evidence is today.
          at:
            v.at && rule.observable !== 'days_without_reading'
              ? new Date(v.at).getTime()
              : startOfDay(current),
          summary,
          reason: {
            summary,
            rule: { id: rule.id, name: rule.name, version: rule.version },
            checks: [
              {
                measure: rule.observable,
                average: v.value,
                count: 1,
                comparison: c.comparison === '=' ? '>=' : c.comparison,
                threshold: c.value,
                breached,
              },
            ],
          },
        });
      }
    }
    return verdicts;
  }

  /** Staff of the role a rule names hear, live, when its alert opens. */
  async function notifyRules(changes: VerdictChange[]): Promise<void> {
    const opened = changes.filter((c) => c.action === 'opened' && c.condition_key.startsWith('rule:'));
    if (opened.length === 0) return;
    const rules = new Map(
      (await activeRules(db, [...new Set(opened.map((c) => c.program_id))])).map((r) => [`rule:${r.id}`, r]),
    );
    const texted: { change: VerdictChange; text: string }[] = [];
    for (const c of opened) {
      const rule = rules.get(c.condition_key);
      if (rule?.outcome.sms_text) texted.push({ change: c, text: rule.outcome.sms_text });
      if (!rule?.outcome.notify_role) continue;
      for (const adminId of await adminsWithRole(db, c.program_id, rule.outcome.notify_role))
        realtime.toUser(adminId, 'alerts.rule', { alert_id: c.id, rule_id: rule.id, type: c.type });
    }
    if (texted.length > 0) await textPatients(texted);
    await moveIntoStages(opened, rules);
  }

  /** A stage whose pre-stage rule raised an alert takes the patient in (ADR 037). */
  async function moveIntoStages(opened: VerdictChange[], rules: Map<string, { id: number }>): Promise<void> {
    const ruleOf = new Map(
      opened.flatMap((c) => (rules.get(c.condition_key) ? [[c.id, rules.get(c.condition_key)!.id]] : [])),
    );
    const stages = await stagesOfRules(db, [...new Set(ruleOf.values())]);
    if (stages.length === 0) return;
    const moved = new Set<number>();
    await db.transaction(async (tx) => {
      for (const c of opened) {
        const ruleId = ruleOf.get(c.id);
        for (const s of stages.filter((x) => x.ruleId === ruleId && x.programId === c.program_id)) {
          const detail = { rule_id: s.ruleId, alert_id: c.id };
          const current = await activeStageOf(tx, s.pipelineId, c.patient_id);
          if (current === s.stageId) continue;
          if (current === null)
            await addPatients(tx, s.pipelineId, s.stageId, [c.patient_id], null, 'rule_moved', detail);
          else await movePatient(tx, s.pipelineId, c.patient_id, s.stageId, null, 'rule_moved', detail);
          moved.add(c.program_id);
        }
      }
    });
    for (const programId of moved) realtime.toProgram(programId, 'pipelines.changed', {});
  }

  /** A rule's text to each patient whose alert it opened, through the SMS outbox (opted-out numbers are kept as blocked). */
  async function textPatients(texted: { change: VerdictChange; text: string }[]): Promise<void> {
    const patients = new Map(
      (
        await patientsToText(
          db,
          texted.map((t) => t.change.patient_id),
        )
      ).map((p) => [p.id, p]),
    );
    const sent: { programId: number; patientId: number }[] = [];
    await db.transaction(async (tx) => {
      for (const { change, text } of texted) {
        const p = patients.get(change.patient_id);
        const phone = p?.phone_number ? normalisePhone(p.phone_number) : null;
        if (!p || !phone) continue;
        const body = text.replaceAll('{first_name}', p.first_name);
        const id = await queueSms(tx, {
          programId: change.program_id,
          patientId: p.id,
          phone,
          body,
          kind: 'rule',
          sentBy: null,
        });
        await audit(tx, {
          actorAdminId: null,
          programId: change.program_id,
          action: 'sms.rule',
          subjectType: 'patient',
          subjectId: p.id,
          details: { sms_id: id, alert_id: change.id, rule: change.condition_key, length: body.length },
        });
        sent.push({ programId: change.program_id, patientId: p.id });
      }
    });
    for (const t of sent) realtime.toProgram(t.programId, SMS_EVENT, { patient_id: t.patientId });
  }

  /** One sweep of every program: absence and adherence alerts, then escalation timers. */
  async function sweep(): Promise<SweepReport> {
    return serial(async () => {
      const current = now();
      const programIds = await allProgramIds(db);
      // Catch-up: readings stored since the last sweep (or in the last day, after a start) are evaluated
      // again, so readings stored while no evaluation ran (a restart, the demo seed) are not missed.
      const since = new Date(lastSweep ?? current - DAY);
      lastSweep = current;
      const measured = await patientsMeasuredSince(db, programIds, since, VITAL_TYPES);
      const vitals = measured.length > 0 ? await vitalsOf(measured) : [];
      const verdicts = [
        ...vitals,
        ...(await deviceVerdicts(programIds, current)),
        ...(await adherenceVerdicts(programIds, current)),
        ...(await recordVerdicts(programIds)),
        ...(await surveyVerdicts(programIds)),
        ...(await ruleVerdicts(programIds, current)),
      ];
      let changes = 0;
      for (let i = 0; i < verdicts.length; i += 2000) {
        await nextTurn();
        const applied = await apply(verdicts.slice(i, i + 2000));
        changes += applied.length;
        await notifyRules(applied);
      }
      const escalated = await escalateDue(db, DEFAULT_ALERT_SETTINGS.escalate_to_role);
      for (const e of escalated) {
        realtime.toProgram(e.program_id, ALERTS_CHANGED_EVENT, { types: [e.type] });
        for (const adminId of e.admin_ids)
          realtime.toUser(adminId, 'alerts.escalated', { alert_id: e.id, type: e.type, role: e.role });
      }
      stats.sweeps++;
      stats.lastSweepAt = current;
      return { verdicts: verdicts.length, changes, escalated: escalated.length };
    });
  }

  return {
    stats,
    /** Patients whose readings changed: evaluated after the gathering wait, together. */
    markDirty(patientIds: Iterable<number>): void {
      for (const id of patientIds) dirty.add(id);
      if (!timer && dirty.size > 0) timer = setTimeout(() => void evaluateDirty(), deps.evaluateWaitMs);
    },
    /** Evaluates the patients' vitals now (tests, the bench). */
    async evaluate(patientIds: number[]): Promise<VerdictChange[]> {
      return serial(async () => apply(await vitalsOf(patientIds)));
    },
    /** Waits for the pending evaluation (tests, the bench). */
    async settle(): Promise<void> {
      if (timer) {
        clearTimeout(timer);
        await evaluateDirty();
      }
      await chain;
    },
    sweep,
    start(): void {
      if (deps.sweepMs <= 0) return;
      // A sweep that outlasts its interval skips the ticks it overlaps (never a queue of sweeps).
      const run = singleFlight(sweep, (err) => {
        stats.failures++;
        log.error({ err: safeErrorDetails(err) }, 'alert sweep failed');
      }).tick;
      // The first sweep soon after the start, then every sweepMs.
      firstSweep = setTimeout(run, Math.min(5000, deps.sweepMs));
      firstSweep.unref();
      sweeper = setInterval(run, deps.sweepMs);
      sweeper.unref();
    },
    async close(): Promise<void> {
      if (sweeper) clearInterval(sweeper);
      if (firstSweep) clearTimeout(firstSweep);
      if (timer) clearTimeout(timer);
      timer = null;
      dirty.clear();
      await chain;
    },
  };
}

export type AlertEngine = ReturnType<typeof createAlertEngine>;
