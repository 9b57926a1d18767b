import {
  ALERT_GROUPS,
  ALERT_MESSAGES,
  ALERT_TYPE_INFO,
  ALERT_TYPES,
  ALERTS_CHANGED_EVENT,
  type Alert,
  type AlertSettingsValues,
  type AlertType,
  pageOf,
} from '@caredeck/contracts';
import { effectiveSettings } from '@caredeck/domain';
import type { StaffActor } from '../../platform/access/actor';
import type { Database, Tx } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import type { Realtime } from '../../platform/realtime/realtime';
import { visiblePrograms } from '../tenancy/tenancy.queries';
import {
  type AlertRow,
  actOn,
  alertById,
  alertsIn,
  cohortProgram,
  completeEscalations,
  type LifecycleAction,
  listAlerts,
  patientCounts,
  patientInProgram,
  patientSummaries,
  patientsInProgramCount,
  resolvedAlerts,
  saveSettingsAt,
  settingsAt,
  settingsLevels,
  snoozeConditions,
  worksInProgram,
} from './alerts.queries';
import { tiles } from './open-facts.queries';

const stamp = (v: string | null) => (v === null ? null : new Date(v).toISOString());

/** An alert row as the API answers it. */
export function alertView(r: AlertRow): Alert {
  return {
    id: r.id,
    type: r.type as AlertType,
    status: r.status as Alert['status'],
    program_id: r.program_id,
    patient: r.patient,
    occurrences: r.occurrences,
    first_at: stamp(r.first_at)!,
    last_at: stamp(r.last_at)!,
    summary: r.summary,
    assigned_admin: r.assigned_admin,
    acknowledged_by: r.acknowledged_by,
    acknowledged_at: stamp(r.acknowledged_at),
    escalated_at: stamp(r.escalated_at),
    escalated_to_role: r.escalated_to_role,
    resolved_at: stamp(r.resolved_at),
    resolution: r.resolution as Alert['resolution'],
    snoozed_until: stamp(r.snoozed_until),
    hidden: r.hidden,
  };
}

const PERIODS: Record<string, number | null> = { day: 1, today: 1, week: 7, month: 30, all: null };

/** `{period}` of the list path: a name or a number of days (1–366); null: no limit. */
function periodDays(value: string): number | null {
  if (Object.hasOwn(PERIODS, value)) return PERIODS[value]!;
  if (/^[1-9][0-9]{0,2}$/.test(value) && Number(value) <= 366) return Number(value);
  throw AppError.validation({ period: [ALERT_MESSAGES.badPeriod] });
}

type Scope = { program_id?: number; enterprise_id?: number };

/** The alert board, its lists and lifecycle (02 §7 "Alerts and analytics"; docs/alerts.md). */
export function createAlertsService(deps: { db: Database; realtime: Realtime; now?: () => number }) {
  const { db, realtime } = deps;
  const now = deps.now ?? Date.now;

  /**
   * The programs a call without a path program works in: the one asked for, the enterprise's the actor
   * sees, or every program the actor sees. A program or enterprise outside them answers 404.
   */
  async function programsOf(actor: StaffActor, scope: Scope): Promise<number[]> {
    const visible = await visiblePrograms(db, actor.adminId);
    if (scope.program_id !== undefined) {
      if (!visible.some((p) => p.id === scope.program_id)) throw AppError.notFound('Program not found');
      return [scope.program_id];
    }
    if (scope.enterprise_id !== undefined) {
      const ids = visible.filter((p) => p.enterprise_id === scope.enterprise_id).map((p) => p.id);
      if (ids.length === 0) throw AppError.notFound('Enterprise not found');
      return ids;
    }
    return visible.map((p) => p.id);
  }

  /**
   * One step on many alerts in one transaction: every id must name an alert the actor may see (one
   * outside answers 404, the same as an unknown id, and nothing is written).
   */
  async function onAlerts(
    actor: StaffActor,
    ids: number[],
    programIds: number[] | undefined,
    write: (tx: Tx, found: { id: number; program_id: number }[]) => Promise<{ program_id: number }[]>,
  ) {
    const unique = [...new Set(ids)];
    const programs = programIds ?? (await visiblePrograms(db, actor.adminId)).map((p) => p.id);
    const changed = await db.transaction(async (tx) => {
      const found = await alertsIn(tx, unique, programs);
      if (found.length !== unique.length) throw AppError.notFound(ALERT_MESSAGES.notFound);
      return write(tx, found);
    });
    changedPrograms(changed.map((c) => c.program_id));
    return changed.length;
  }

  async function act(
    actor: StaffActor,
    ids: number[],
    action: LifecycleAction,
    message: string,
    options: { programIds?: number[]; assignee?: number | null } = {},
  ) {
    const count = await onAlerts(actor, ids, options.programIds, async (tx, found) => {
      if (action === 'assigned' && options.assignee)
        for (const programId of new Set(found.map((a) => a.program_id)))
          if (!(await worksInProgram(tx, options.assignee, programId)))
            throw AppError.validation({ admin_id: [ALERT_MESSAGES.unknownAdmin] });
      return actOn(
        tx,
        found.map((a) => a.id),
        action,
        actor.adminId,
        options.assignee ?? null,
      );
    });
    return { message, count };
  }

  function changedPrograms(programIds: number[]) {
    for (const id of new Set(programIds)) realtime.toProgram(id, ALERTS_CHANGED_EVENT, { types: [] });
  }

  return {
    async groups(actor: StaffActor, scope: Scope) {
      const rows = await tiles(db, await programsOf(actor, scope));
      const byType = new Map(rows.map((r) => [r.type, r]));
      const data = ALERT_TYPES.map((type) => {
        const r = byType.get(type);
        return {
          type,
          group: ALERT_TYPE_INFO[type].group,
          evaluated: ALERT_TYPE_INFO[type].evaluated,
          count: r?.count ?? 0,
          patients: r?.patients ?? 0,
          unacknowledged: r?.unacknowledged ?? 0,
          snoozed: r?.snoozed ?? 0,
        };
      });
      return { data, total: data.reduce((n, t) => n + t.count, 0) };
    },

    async list(
      actor: StaffActor,
      params: { type: string; period: string; cohort: string },
      query: Scope & {
        page: number;
        pagination: number;
        query?: string;
        status: string;
        assigned?: 'me' | 'nobody';
        include_hidden: '0' | '1';
      },
    ) {
      // `all`: every type (the escalations list, a patient's alerts).
      if (params.type !== 'all' && !(ALERT_TYPES as readonly string[]).includes(params.type))
        throw AppError.validation({ type: [ALERT_MESSAGES.unknownType] });
      const days = periodDays(params.period);
      let cohortId: number | null = null;
      if (params.cohort !== 'all' && params.cohort !== '0') {
        if (!/^[1-9][0-9]{0,15}$/.test(params.cohort))
          throw AppError.validation({ cohort: [ALERT_MESSAGES.badCohort] });
        cohortId = Number(params.cohort);
      }
      const programIds = await programsOf(actor, query);
      if (cohortId !== null) {
        const program = await cohortProgram(db, cohortId);
        if (program === null || !programIds.includes(program)) throw AppError.notFound('Cohort not found');
      }
      const statuses =
        query.status === 'active'
          ? ['open', 'acknowledged', 'escalated']
          : query.status === 'all'
            ? ['open', 'acknowledged', 'escalated', 'resolved']
            : [query.status];
      const { rows, total } = await listAlerts(db, {
        programIds,
        type: params.type === 'all' ? null : params.type,
        since: days === null ? null : new Date(now() - days * 24 * 3600_000),
        cohortId,
        search: query.query?.trim() || null,
        statuses,
        includeHidden: query.include_hidden === '1',
        // A snoozed condition stays off the active board for its whole snooze; the other views show it.
        includeSnoozed: query.status !== 'active' && query.status !== 'open',
        assigned: query.assigned === 'me' ? { adminId: actor.adminId } : (query.assigned ?? null),
        page: query.page,
        perPage: query.pagination,
      });
      return pageOf(rows.map(alertView), { page: query.page, per_page: query.pagination }, total);
    },

    async detail(_actor: StaffActor, id: number) {
      const row = await alertById(db, id);
      if (!row) throw AppError.notFound(ALERT_MESSAGES.notFound);
      return {
        data: {
          ...alertView(row),
          reason: row.reason as never,
          history: (row.history as { at: string; action: string; admin: unknown; detail: unknown }[]).map(
            (h) => ({
              ...h,
              at: new Date(h.at).toISOString(),
            }),
          ) as never,
        },
      };
    },

    clear: (actor: StaffActor, ids: number[], programIds?: number[]) =>
      act(actor, ids, 'cleared', ALERT_MESSAGES.cleared, { programIds }),
    acknowledge: (actor: StaffActor, ids: number[]) =>
      act(actor, ids, 'acknowledged', ALERT_MESSAGES.acknowledged),
    hide: (actor: StaffActor, ids: number[], programIds: number[]) =>
      act(actor, ids, 'hidden', ALERT_MESSAGES.hidden, { programIds }),
    assign: (actor: StaffActor, ids: number[], adminId: number | null) =>
      act(actor, ids, 'assigned', ALERT_MESSAGES.assigned, { assignee: adminId }),

    async snooze(actor: StaffActor, ids: number[], minutes: number) {
      const until = new Date(now() + minutes * 60_000);
      const count = await onAlerts(actor, ids, undefined, (tx, found) =>
        snoozeConditions(
          tx,
          found.map((a) => a.id),
          until,
          actor.adminId,
        ),
      );
      return { message: ALERT_MESSAGES.snoozed, count, until: until.toISOString() };
    },

    async resolved(actor: StaffActor, query: Scope & { page: number; per_page: number }) {
      const { rows, total } = await resolvedAlerts(
        db,
        await programsOf(actor, query),
        query.page,
        query.per_page,
      );
      return pageOf(rows.map(alertView), query, total);
    },

    async counts(actor: StaffActor, query: Scope & { cohort_id?: number }) {
      const programIds = await programsOf(actor, query);
      const cohortId = query.cohort_id ?? null;
      if (cohortId !== null) {
        const program = await cohortProgram(db, cohortId);
        if (program === null || !programIds.includes(program)) throw AppError.notFound('Cohort not found');
      }
      return { data: await patientCounts(db, programIds, cohortId) };
    },

    /** 01 §7 legacy list: the program's alerts (a patient's with user_id), resolved ones too on request. */
    async legacyList(
      actor: StaffActor,
      query: { user_id?: number; include_completed?: string; page: number; per_page: number },
    ) {
      const completed = query.include_completed === '1' || query.include_completed === 'true';
      const { rows, total } = await listAlerts(db, {
        programIds: [actor.program!.id],
        type: null,
        patientId: query.user_id ?? null,
        since: null,
        cohortId: null,
        search: null,
        statuses: completed
          ? ['open', 'acknowledged', 'escalated', 'resolved']
          : ['open', 'acknowledged', 'escalated'],
        includeHidden: false,
        includeSnoozed: true,
        assigned: null,
        page: query.page,
        perPage: query.per_page,
      });
      return pageOf(rows.map(alertView), query, total);
    },

    async completeEscalations(actor: StaffActor, patientIds: number[]) {
      const programId = actor.program!.id;
      const unique = [...new Set(patientIds)];
      const changed = await db.transaction(async (tx) => {
        if ((await patientsInProgramCount(tx, programId, unique)) !== unique.length)
          throw AppError.notFound('Patient not found');
        return completeEscalations(tx, programId, unique, actor.adminId);
      });
      if (changed.length > 0) changedPrograms([programId]);
      return { message: ALERT_MESSAGES.escalationCompleted, count: changed.length };
    },

    async resolveStep(actor: StaffActor, id: number) {
      await onAlerts(actor, [id], [actor.program!.id], (tx, found) =>
        actOn(
          tx,
          found.map((a) => a.id),
          'cleared',
          actor.adminId,
        ),
      );
      const row = await alertById(db, id);
      return { message: ALERT_MESSAGES.resolved, data: alertView(row!) };
    },

    async summary(
      actor: StaffActor,
      query: { name?: string; grouped: string; page: number; per_page: number },
    ) {
      const programIds = [actor.program!.id];
      if (query.grouped === '0' || query.grouped === 'false') {
        const rows = await tiles(db, programIds);
        return {
          data: rows.filter((r) => r.count > 0).map((r) => ({ type: r.type as AlertType, count: r.count })),
        };
      }
      const { rows, total } = await patientSummaries(
        db,
        programIds,
        query.name?.trim() || null,
        query.page,
        query.per_page,
      );
      return pageOf(
        rows.map(({ last_at, ...r }) => ({ ...r, last_at: new Date(last_at).toISOString() })),
        query,
        total,
      );
    },

    async pathways(actor: StaffActor) {
      const levels = await settingsLevels(db, actor.program!.id, { cohortId: null, patientId: null });
      const { settings } = effectiveSettings(levels.filter((l) => l.level === 'program'));
      return {
        data: ALERT_GROUPS.map((group) => ({
          group,
          types: ALERT_TYPES.filter((t) => ALERT_TYPE_INFO[t].group === group),
          escalate_after_minutes: settings.escalate_after_minutes,
          escalate_to_role: settings.escalate_to_role,
        })),
      };
    },

    async settings(actor: StaffActor, query: { cohort_id?: number; patient_id?: number }) {
      const programId = actor.program!.id;
      const level = await levelOf(programId, query);
      const own = (await settingsAt(db, programId, level)) ?? {};
      const levels = await settingsLevels(db, programId, level);
      const { settings, source } = effectiveSettings(levels);
      return { data: { own, effective: settings, source } };
    },

    async saveSettings(
      actor: StaffActor,
      query: { cohort_id?: number; patient_id?: number },
      body: { settings: AlertSettingsValues },
    ) {
      const programId = actor.program!.id;
      const level = await levelOf(programId, query);
      await saveSettingsAt(db, programId, level, body.settings, actor.adminId);
      return { message: ALERT_MESSAGES.settingsSaved };
    },
  };

  async function levelOf(programId: number, query: { cohort_id?: number; patient_id?: number }) {
    if (query.cohort_id !== undefined && query.patient_id !== undefined)
      throw AppError.validation({ cohort_id: ['Choose a cohort or a patient, not both.'] });
    if (query.cohort_id !== undefined && (await cohortProgram(db, query.cohort_id)) !== programId)
      throw AppError.notFound('Cohort not found');
    if (query.patient_id !== undefined && !(await patientInProgram(db, query.patient_id, programId)))
      throw AppError.notFound('Patient not found');
    return { cohortId: query.cohort_id ?? null, patientId: query.patient_id ?? null };
  }
}

export type AlertsService = ReturnType<typeof createAlertsService>;
