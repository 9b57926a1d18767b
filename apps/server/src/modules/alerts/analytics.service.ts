import {
  ALERT_MESSAGES,
  ALERT_TYPES,
  DASHBOARD_FACTS,
  type DashboardFact,
  pageOf,
} from '@caredeck/contracts';
import { isValidTimeZone } from '@caredeck/domain';
import type { StaffActor } from '../../platform/access/actor';
import { type PopulationCache, patientsOfPrograms, uncached } from '../../platform/cache/population-cache';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { iso, rangeOf } from '../adherence/calendar-range';
import { visiblePrograms } from '../tenancy/tenancy.queries';
import type { AlertEngine } from './alerts.engine';
import { alertView } from './alerts.service';
import { analyticsAlerts, analyticsFigures, dailyFact, openAlertCount } from './analytics.queries';

type AnalyticsQuery = {
  count?: '0' | '1';
  zone?: string;
  criterias?: string;
  cohorts?: number[];
  search?: string;
  filters?: Record<string, unknown>;
  patient_filters?: Record<string, unknown>;
  scopedFilters?: Record<string, unknown>;
  alert_status: string;
  ids?: number[];
  page: number;
  per_page: number;
};

const STATUSES: Record<string, string[]> = {
  active: ['open', 'acknowledged', 'escalated'],
  all: ['open', 'acknowledged', 'escalated', 'resolved'],
};

/** Alert analytics (02 §7): figures and lists of a period, the engine's state, dashboard series. */
export function createAnalyticsService(deps: {
  db: Database;
  engine: AlertEngine;
  cache?: PopulationCache;
  now?: () => number;
}) {
  const { db, engine } = deps;
  const cache = deps.cache ?? uncached;
  const now = deps.now ?? Date.now;

  function period(start: string, end: string, zone = 'UTC') {
    if (!isValidTimeZone(zone)) throw AppError.validation({ zone: [ALERT_MESSAGES.unknownZone] });
    const range = rangeOf(zone, start, end, now());
    return {
      from: new Date(range.from),
      to: new Date(range.to),
      zone,
      start: iso(range.start),
      end: iso(range.end),
    };
  }

  async function report(
    actor: StaffActor,
    programIds: number[],
    start: string,
    end: string,
    q: AnalyticsQuery,
  ) {
    const p = period(start, end, q.zone);
    // Within an enterprise, scopedFilters.program_ids narrows to some of its programs (others are ignored).
    const scoped = q.scopedFilters?.program_ids;
    if (Array.isArray(scoped)) {
      const wanted = new Set(scoped.filter((v): v is number => typeof v === 'number'));
      programIds = programIds.filter((id) => wanted.has(id));
    }
    const scope = { programIds, from: p.from, to: p.to, zone: p.zone };
    if (q.count === '1') {
      // A large program's figures are at most the cache's freshness old (ADR 077).
      const { value: f } = await cache.get(
        `alert-analytics:${programIds.join(',')}:${p.from.toISOString()}:${p.to.toISOString()}:${p.zone}`,
        await patientsOfPrograms(db, programIds),
        () => analyticsFigures(db, scope),
      );
      return {
        data: {
          start: p.start,
          end: p.end,
          zone: p.zone,
          total: f.total,
          by_status: {
            open: f.open,
            acknowledged: f.acknowledged,
            escalated: f.escalated,
            resolved: f.resolved,
          },
          auto_resolved: f.auto_resolved,
          time_to_acknowledge: f.time_to_acknowledge,
          time_to_resolve: f.time_to_resolve,
          by_type: f.by_type,
          by_day: f.by_day ?? [],
          by_staff: f.by_staff,
        },
      };
    }
    const types = q.criterias
      ? q.criterias
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
      : null;
    if (types?.some((t) => !(ALERT_TYPES as readonly string[]).includes(t)))
      throw AppError.validation({ criterias: [ALERT_MESSAGES.unknownType] });
    const filters = q.filters ?? {};
    const patient = q.patient_filters ?? {};
    const rows = await analyticsAlerts(db, {
      ...scope,
      types,
      cohortIds: q.cohorts ?? null,
      search: q.search?.trim() || null,
      statuses: STATUSES[q.alert_status] ?? [q.alert_status],
      hidden: typeof filters.hidden === 'boolean' ? filters.hidden : null,
      assigned:
        filters.assigned === 'me'
          ? { adminId: actor.adminId }
          : filters.assigned === 'nobody'
            ? 'nobody'
            : null,
      patient: {
        sex: typeof patient.sex === 'string' ? patient.sex : undefined,
        status: typeof patient.status === 'string' ? patient.status : undefined,
        assignedAdminId:
          typeof patient.assigned_admin_id === 'number' ? patient.assigned_admin_id : undefined,
      },
      ids: q.ids ?? null,
      page: q.page,
      perPage: q.per_page,
    });
    return pageOf(rows.map(alertView), q, rows[0]?.total ?? 0);
  }

  return {
    async process(actor: StaffActor) {
      const s = engine.stats;
      return {
        data: {
          last_sweep_at: s.lastSweepAt === null ? null : new Date(s.lastSweepAt).toISOString(),
          sweeps: s.sweeps,
          evaluations: s.evaluations,
          patients_evaluated: s.patientsEvaluated,
          verdicts: s.verdicts,
          changes: s.changes,
          failures: s.failures,
          open_alerts: await openAlertCount(db, [actor.program!.id]),
          sweep_every_ms: s.sweepMs,
        },
      };
    },
    program: (actor: StaffActor, params: { startDate: string; endDate: string }, q: AnalyticsQuery) =>
      report(actor, [actor.program!.id], params.startDate, params.endDate, q),
    enterprise: (actor: StaffActor, params: { startDate: string; endDate: string }, q: AnalyticsQuery) =>
      report(actor, actor.enterprise!.programIds, params.startDate, params.endDate, q),

    async dashboard(
      actor: StaffActor,
      params: { fact: string; start: string; end: string },
      q: { program_id?: number; enterprise_id?: number; zone?: string },
    ) {
      if (!(DASHBOARD_FACTS as readonly string[]).includes(params.fact))
        throw AppError.validation({ fact: [ALERT_MESSAGES.unknownFact] });
      const p = period(params.start, params.end, q.zone);
      const visible = await visiblePrograms(db, actor.adminId);
      let programIds = visible.map((v) => v.id);
      if (q.program_id !== undefined) {
        if (!programIds.includes(q.program_id)) throw AppError.notFound('Program not found');
        programIds = [q.program_id];
      } else if (q.enterprise_id !== undefined) {
        programIds = visible.filter((v) => v.enterprise_id === q.enterprise_id).map((v) => v.id);
        if (programIds.length === 0) throw AppError.notFound('Enterprise not found');
      }
      const data = await dailyFact(db, params.fact as DashboardFact, {
        programIds,
        from: p.from,
        to: p.to,
        zone: p.zone,
      });
      return {
        fact: params.fact as DashboardFact,
        total: data.reduce((n, d) => n + d.value, 0),
        data,
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
