import {
  type BillingStatus,
  type BulkActionJob,
  type BulkActionState,
  type BulkActionType,
  CARE_ROLES,
  BULK_ACTION_MESSAGES as M,
  pageOf,
  type StaffRole,
} from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { requireProgramRole } from '../../platform/access/program-role';
import { assertBodyRefsInScope } from '../../platform/access/scope';
import { audit, auditView } from '../../platform/audit/audit';
import type { Database, Queryable } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { upsertBillingStatuses } from '../billing/billing.queries';
import { addMembers } from '../groups/groups.queries';
import { assignPatients, setStatuses } from '../patients/record.queries';
import {
  cohortInProgram,
  decideJob,
  insertJob,
  jobByUuid,
  jobPatientIds,
  jobPatients,
  listJobs,
  patientsInProgram,
  programOfJob,
  recordOutcomes,
  staffInProgram,
} from './bulk-actions.queries';

/** Who proposes bulk actions: the care roles. Who approves, cancels and re-runs them: administrators. */
export const PROPOSER_ROLES: readonly StaffRole[] = CARE_ROLES;
export const APPROVER_ROLES: readonly StaffRole[] = ['admin', 'enterprise_admin'];

/**
 * Applies the job's action to `patientIds` in one statement per action; returns the patients it was applied to
 * (the others failed with the returned reason). Patients that already had the value count as done.
 */
async function apply(
  tx: Queryable,
  job: BulkActionJob,
  patientIds: number[],
  adminId: number,
): Promise<{ done: number[]; error: string }> {
  const here = await patientsInProgram(tx, job.program_id, patientIds);
  const value = job.value;
  switch (job.action as BulkActionType) {
    case 'patient_status':
      await setStatuses(tx, here, String(value), adminId, { source: 'bulk_action', reason: job.note });
      return { done: here, error: M.patientGone };
    case 'billing_status':
      await upsertBillingStatuses(tx, {
        patientIds: here,
        programId: job.program_id,
        status: value as BillingStatus,
        adminId,
      });
      return { done: here, error: M.patientGone };
    case 'add_to_cohort':
      if (!(await cohortInProgram(tx, Number(value), job.program_id)))
        return { done: [], error: M.cohortGone };
      await addMembers(tx, Number(value), here, adminId);
      return { done: here, error: M.patientGone };
    case 'assign_admin':
      if (value !== null && !(await staffInProgram(tx, Number(value), job.program_id)))
        return { done: [], error: M.staffGone };
      await assignPatients(tx, here, value === null ? null : Number(value));
      return { done: here, error: M.patientGone };
  }
}

export function createBulkActionsService(deps: { db: Database }) {
  const { db } = deps;

  /** The job named by `jobId`, when the actor holds one of `roles` in its program (404 outside, 403 without). */
  async function jobFor(actor: StaffActor, jobId: string, roles: readonly StaffRole[]) {
    const programId = await programOfJob(db, jobId);
    if (programId === null) throw AppError.notFound('Bulk action not found');
    await requireProgramRole(db, actor.adminId, programId, roles).catch((error: unknown) => {
      if (error instanceof AppError && error.status === 404) throw AppError.notFound('Bulk action not found');
      throw error;
    });
    return programId;
  }

  async function run(actor: StaffActor, jobId: string, mode: 'approve' | 'all' | 'failed') {
    await jobFor(actor, jobId, APPROVER_ROLES);
    const id = await db.transaction(async (tx) => {
      const job = (await jobByUuid(tx, jobId, true))!;
      if (mode === 'approve' && job.state !== 'assigned') throw AppError.conflict(M.notWaiting);
      if (mode !== 'approve' && job.state !== 'approved') throw AppError.conflict(M.notApproved);
      if (mode === 'approve') await decideJob(tx, job.id, 'approved', actor.adminId);
      const ids = await jobPatientIds(tx, job.id, mode === 'failed');
      const { done, error } = await apply(tx, job, ids, actor.adminId);
      await recordOutcomes(tx, job.id, ids, done, error);
      await audit(tx, {
        actorAdminId: actor.adminId,
        programId: job.program_id,
        action: mode === 'approve' ? 'bulk_action.approve' : 'bulk_action.rerun',
        details: { job_id: jobId, action: job.action, patients: ids.length, done: done.length, mode },
        ip: actor.ip,
      });
      return job.id;
    });
    return {
      message: mode === 'approve' ? M.approved : M.rerun,
      data: (await jobByUuid(db, jobId))!,
      patients: await jobPatients(db, id),
    };
  }

  return {
    async list(
      actor: StaffActor,
      q: { program_id: number; state?: BulkActionState; job_id?: string; page: number; per_page: number },
    ) {
      const programId = await requireProgramRole(db, actor.adminId, q.program_id, PROPOSER_ROLES);
      const { rows, total } = await listJobs(db, {
        programId,
        state: q.state,
        jobId: q.job_id,
        page: q.page,
        perPage: q.per_page,
      });
      if (!q.job_id) return pageOf(rows, q, total);
      if (!rows[0]) throw AppError.notFound('Bulk action not found');
      const patients = await jobPatients(db, rows[0].id);
      await auditView(db, {
        actorAdminId: actor.adminId,
        programId,
        action: 'bulk_action.view',
        details: { job_id: q.job_id, patients: patients.length },
        ip: actor.ip,
      });
      return { ...pageOf(rows, q, total), patients };
    },

    /**
     * POST bulk_actions: every patient named must be of the program (else 404, nothing saved); the cohort or
     * staff member named must be of it too (422). The job waits for an administrator.
     */
    async create(
      actor: StaffActor,
      input: {
        program_id: number;
        action: BulkActionType;
        value: string | number | null;
        users_id: number[];
        note?: string | null;
      },
    ) {
      const programId = await requireProgramRole(db, actor.adminId, input.program_id, PROPOSER_ROLES);
      const patientIds = [...new Set(input.users_id)];
      const jobId = await db.transaction(async (tx) => {
        await assertBodyRefsInScope(
          tx,
          { programIds: [programId], enterpriseIds: [] },
          { patients: patientIds },
        );
        if (input.action === 'add_to_cohort' && !(await cohortInProgram(tx, Number(input.value), programId)))
          throw AppError.validation({ value: [M.cohortGone] });
        if (
          input.action === 'assign_admin' &&
          input.value !== null &&
          !(await staffInProgram(tx, Number(input.value), programId))
        )
          throw AppError.validation({ value: [M.staffGone] });
        const created = await insertJob(tx, {
          programId,
          action: input.action,
          value: input.value,
          note: input.note ?? null,
          adminId: actor.adminId,
          patientIds,
        });
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'bulk_action.create',
          details: { job_id: created, action: input.action, patients: patientIds.length },
          ip: actor.ip,
        });
        return created;
      });
      return { message: M.created, data: (await jobByUuid(db, jobId))! };
    },

    approve: (actor: StaffActor, jobId: string) => run(actor, jobId, 'approve'),
    rerunAll: (actor: StaffActor, jobId: string) => run(actor, jobId, 'all'),
    rerunFailed: (actor: StaffActor, jobId: string) => run(actor, jobId, 'failed'),

    async cancel(actor: StaffActor, jobId: string) {
      const programId = await jobFor(actor, jobId, APPROVER_ROLES);
      await db.transaction(async (tx) => {
        const job = (await jobByUuid(tx, jobId, true))!;
        if (job.state !== 'assigned') throw AppError.conflict(M.notWaiting);
        await decideJob(tx, job.id, 'cancelled', actor.adminId);
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'bulk_action.cancel',
          details: { job_id: jobId },
          ip: actor.ip,
        });
      });
      return { message: M.cancelled, data: (await jobByUuid(db, jobId))! };
    },
  };
}

export type BulkActionsService = ReturnType<typeof createBulkActionsService>;
