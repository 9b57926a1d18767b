import { isCalendarDay, LOG_MESSAGES as M, pageOf, type StaffRole } from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { type PopulationCache, patientsOfPrograms, uncached } from '../../platform/cache/population-cache';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import {
  actionCounts,
  activityByStaff,
  daysOf,
  logEntries,
  loginLogoutOf,
  type Period,
  patientCounts,
  staffOfProgram,
} from './logs.queries';

/** Who reads everyone's logs in a program; anyone else reads their own. */
export const LOG_READER_ROLES: readonly StaffRole[] = ['admin', 'enterprise_admin'];
const DAY = 86_400_000;
const MAX_DAYS = 366;

/** The period asked for (default: the last 30 days), checked: dates in order, at most a year. */
function periodOf(q: { start?: string; end?: string }, now = Date.now()): Period {
  for (const key of ['start', 'end'] as const)
    if (q[key] !== undefined && !isCalendarDay(q[key]!))
      throw AppError.validation({ [key]: ['Use the format YYYY-MM-DD.'] });
  const to = q.end ?? new Date(now).toISOString().slice(0, 10);
  const from = q.start ?? new Date(Date.parse(to) - 29 * DAY).toISOString().slice(0, 10);
  const span = (Date.parse(to) - Date.parse(from)) / DAY;
  if (Number.isNaN(span)) throw AppError.validation({ start: ['Use the format YYYY-MM-DD.'] });
  if (span < 0) throw AppError.validation({ end: [M.badRange] });
  if (span >= MAX_DAYS) throw AppError.validation({ end: [`At most ${MAX_DAYS} days.`] });
  return { from, to };
}

/** 02 §7 "Logs" (ADR 039). */
export function createLogsService(deps: { db: Database; cache?: PopulationCache }) {
  const { db } = deps;
  const cache = deps.cache ?? uncached;
  const programOf = (actor: StaffActor) => actor.program!.id;
  const readsAll = (actor: StaffActor) => actor.program!.roles.some((r) => LOG_READER_ROLES.includes(r));

  /** Another staff member's logs need a reader role (403); a stranger to the program answers 404. */
  async function canRead(actor: StaffActor, adminId: number) {
    if (adminId !== actor.adminId && !readsAll(actor)) throw AppError.forbidden();
    if (!(await staffOfProgram(db, programOf(actor), adminId))) throw AppError.notFound(M.staffNotFound);
  }

  return {
    async adminLogs(
      actor: StaffActor,
      q: {
        start?: string;
        end?: string;
        admin_id?: number;
        action?: string;
        summary?: '0' | '1';
        page: number;
        per_page: number;
      },
    ) {
      const period = periodOf(q);
      const programId = programOf(actor);
      // Staff without a reader role see their own actions only.
      const adminId = readsAll(actor) ? q.admin_id : actor.adminId;
      if (q.summary === '1') {
        // A large program's summary is at most the cache's freshness old (ADR 077).
        const { value: rows } = await cache.get(
          `staff-summary:${programId}:${period.from}:${period.to}:${adminId ?? '*'}`,
          await patientsOfPrograms(db, [programId]),
          () => activityByStaff(db, programId, period, adminId),
        );
        return pageOf(rows.slice((q.page - 1) * q.per_page, q.page * q.per_page), q, rows.length);
      }
      const res = await logEntries(db, programId, {
        period,
        adminId,
        action: q.action,
        page: q.page,
        per_page: q.per_page,
      });
      return pageOf(res.rows, q, res.total);
    },
    async adminLog(actor: StaffActor, adminId: number, q: { start?: string; end?: string }) {
      await canRead(actor, adminId);
      const period = periodOf(q);
      const programId = programOf(actor);
      // In a large program, at most the cache's freshness old (ADR 077): a month of one member's actions.
      const { value } = await cache.get(
        `staff-member:${programId}:${adminId}:${period.from}:${period.to}`,
        await patientsOfPrograms(db, [programId]),
        async () => {
          const [activity] = await activityByStaff(db, programId, period, adminId);
          const latest = await logEntries(db, programId, { period, adminId, page: 1, per_page: 20 });
          return {
            ...activity!,
            by_action: await actionCounts(db, programId, adminId, period),
            latest: latest.rows,
          };
        },
      );
      return { data: value };
    },
    async dayWise(actor: StaffActor, adminId: number, q: { start?: string; end?: string }) {
      await canRead(actor, adminId);
      return { data: await daysOf(db, programOf(actor), adminId, periodOf(q)) };
    },
    async patientCounts(actor: StaffActor, adminId: number, q: { start: string; end: string }) {
      await canRead(actor, adminId);
      return { data: await patientCounts(db, programOf(actor), adminId, periodOf(q)) };
    },
    async loginLogout(actor: StaffActor, adminId: number, q: { start: string; end: string }) {
      await canRead(actor, adminId);
      const { rows, total } = await loginLogoutOf(db, adminId, periodOf(q));
      return { data: rows, total };
    },
  };
}

export type LogsService = ReturnType<typeof createLogsService>;
