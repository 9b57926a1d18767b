import {
  DEFAULT_PROGRAM_ID,
  STATUS_LOG_MESSAGES as M,
  type Paged,
  pageOf,
  STATUS_LOG_DEFAULT_DAYS,
  STATUS_LOG_MAX_DAYS,
  type StatusLogEntry,
  type StatusLogQuery,
} from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { auditView } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { statusLogPage } from './status-logs.queries';

const DAY = 86_400_000;

/** The period asked for (default: the last 30 UTC days up to today), checked: real dates, in order, ≤ 366 days. */
export function periodOf(
  q: { start?: string; end?: string },
  now = Date.now(),
): { from: string; to: string } {
  for (const key of ['start', 'end'] as const) {
    const value = q[key];
    // 2026-02-31 passes the contract's pattern but is no day.
    if (value !== undefined && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value)
      throw AppError.validation({ [key]: [M.badDay] });
  }
  const to = q.end ?? new Date(now).toISOString().slice(0, 10);
  const from =
    q.start ?? new Date(Date.parse(to) - (STATUS_LOG_DEFAULT_DAYS - 1) * DAY).toISOString().slice(0, 10);
  const span = (Date.parse(to) - Date.parse(from)) / DAY;
  if (span < 0) throw AppError.validation({ end: [M.badRange] });
  if (span >= STATUS_LOG_MAX_DAYS) throw AppError.validation({ end: [M.tooLong] });
  return { from, to };
}

/** 02 §2 /status-logs (ADR 047): the log of patients' status changes of a program or an enterprise. */
export function createStatusLogsService(deps: { db: Database }) {
  const { db } = deps;

  /** One page of the log over the given programs; the read is audited as a PHI view (no search text). */
  async function read(
    actor: StaffActor,
    programIds: number[],
    query: StatusLogQuery,
    scope: { programId: number | null; enterpriseId?: number },
  ): Promise<Paged<StatusLogEntry>> {
    const period = periodOf(query);
    const { rows, total } = await statusLogPage(db, {
      programIds,
      ...period,
      status: query.status,
      adminId: query.admin_id,
      source: query.source,
      search: query.search,
      page: query.page,
      perPage: query.per_page,
    });
    await auditView(db, {
      actorAdminId: actor.adminId,
      programId: scope.programId,
      action: 'status_logs.list',
      details: {
        ...(scope.enterpriseId ? { enterprise_id: scope.enterpriseId } : {}),
        start: period.from,
        end: period.to,
        filters: (['status', 'admin_id', 'source', 'search'] as const).filter((k) => Boolean(query[k])),
        page: query.page,
        per_page: query.per_page,
        returned: rows.length,
      },
      ip: actor.ip,
    });
    return pageOf(rows, query, total);
  }

  return {
    /** The program of the path (the access hook resolved it and the actor's role there). */
    async list(actor: StaffActor, query: StatusLogQuery) {
      const program = actor.program;
      if (!program) throw new Error('the status log of a program needs the program the access hook resolved');
      return read(actor, [program.id], query, { programId: program.id });
    },

    /** The enterprise's programs the actor sees, or the one `program_id` names (404 if it is not one of them). */
    async listEnterprise(actor: StaffActor, query: StatusLogQuery & { program_id?: number }) {
      const enterprise = actor.enterprise;
      if (!enterprise)
        throw new Error('the status log of an enterprise needs the enterprise the access hook resolved');
      const { program_id, ...rest } = query;
      // Program 1 on enterprise scope means no program filter (02 §1).
      const narrowed = program_id !== undefined && program_id !== DEFAULT_PROGRAM_ID;
      if (narrowed && !enterprise.programIds.includes(program_id)) throw AppError.notFound(M.programNotFound);
      return read(actor, narrowed ? [program_id] : enterprise.programIds, rest, {
        programId: narrowed ? program_id : null,
        enterpriseId: enterprise.id,
      });
    },
  };
}

export type StatusLogsService = ReturnType<typeof createStatusLogsService>;
