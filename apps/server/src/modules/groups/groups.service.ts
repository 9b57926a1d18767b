import {
  type AuditAction,
  GROUP_MESSAGES,
  type GroupDetail,
  type GroupSummary,
  pageOf,
} from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { audit, auditView } from '../../platform/audit/audit';
import type { Database, Queryable } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { patientsWithin, programIdsOfAdmin } from '../patients/record.queries';
import {
  addMembers,
  deleteGroup,
  groupDetail,
  groupInProgram,
  groupNameTaken,
  groupSummaryById,
  groupsOfPatient,
  insertGroup,
  listGroups,
  patientsOfProgram,
  removeMember,
  updateGroup,
} from './groups.queries';

function programOf(actor: StaffActor) {
  if (!actor.program) throw new Error('a cohort use case needs the program the access hook resolved');
  return actor.program;
}

function auditGroup(
  db: Queryable,
  actor: StaffActor,
  action: AuditAction,
  groupId: number,
  details?: object,
) {
  return audit(db, {
    actorAdminId: actor.adminId,
    programId: actor.program?.id ?? null,
    action,
    subjectType: 'group',
    subjectId: groupId,
    details: details as Record<string, unknown> | undefined,
    ip: actor.ip,
  });
}

export function createGroupsService(deps: { db: Database }) {
  const { db } = deps;

  /** Every patient named must be a patient of the cohort's program: else nothing is added and the answer is 404. */
  async function addAll(tx: Queryable, actor: StaffActor, groupId: number, programId: number, ids: number[]) {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return 0;
    const found = await patientsOfProgram(tx, programId, unique);
    if (found.length !== unique.length) throw AppError.notFound();
    return addMembers(tx, groupId, unique, actor.adminId);
  }

  async function detail(tx: Queryable, groupId: number): Promise<GroupDetail> {
    const group = await groupDetail(tx, groupId);
    if (!group) throw AppError.notFound();
    return group;
  }

  async function summary(tx: Queryable, groupId: number): Promise<GroupSummary> {
    const group = await groupSummaryById(tx, groupId);
    if (!group) throw AppError.notFound();
    return group;
  }

  return {
    async list(
      actor: StaffActor,
      input: { page: number; per_page: number; name?: string; keyword?: string },
    ) {
      const { rows, total } = await listGroups(db, programOf(actor).id, input);
      return pageOf(rows, input, total);
    },

    async create(
      actor: StaffActor,
      input: { name: string; description?: string | null; queryTo?: string | null; users?: number[] },
    ) {
      const program = programOf(actor);
      return db.transaction(async (tx) => {
        if (await groupNameTaken(tx, program.id, input.name, null))
          throw AppError.validation({ name: [GROUP_MESSAGES.nameTaken] });
        const id = await insertGroup(tx, {
          programId: program.id,
          name: input.name,
          description: input.description ?? null,
          queryTo: input.queryTo ?? null,
          createdBy: actor.adminId,
        });
        const added = await addAll(tx, actor, id, program.id, input.users ?? []);
        await auditGroup(tx, actor, 'group.create', id, { patients: added });
        return detail(tx, id);
      });
    },

    async update(
      actor: StaffActor,
      input: { groupId: number; name?: string; description?: string | null; queryTo?: string | null },
    ) {
      const program = programOf(actor);
      return db.transaction(async (tx) => {
        if (!(await groupInProgram(tx, input.groupId, program.id))) throw AppError.notFound();
        if (input.name && (await groupNameTaken(tx, program.id, input.name, input.groupId)))
          throw AppError.validation({ name: [GROUP_MESSAGES.nameTaken] });
        await updateGroup(tx, input.groupId, input);
        await auditGroup(tx, actor, 'group.update', input.groupId, {
          fields: Object.keys(input).filter((k) => k !== 'groupId'),
        });
        return detail(tx, input.groupId);
      });
    },

    async addUser(actor: StaffActor, input: { groupId: number; patientId: number }) {
      const program = programOf(actor);
      return db.transaction(async (tx) => {
        if (!(await groupInProgram(tx, input.groupId, program.id))) throw AppError.notFound();
        if (await addAll(tx, actor, input.groupId, program.id, [input.patientId]))
          await auditGroup(tx, actor, 'group.add_patients', input.groupId, { patients: 1 });
        return summary(tx, input.groupId);
      });
    },

    async removeUser(actor: StaffActor, input: { groupId: number; patientId: number }) {
      const program = programOf(actor);
      return db.transaction(async (tx) => {
        if (!(await groupInProgram(tx, input.groupId, program.id))) throw AppError.notFound();
        if (!(await removeMember(tx, input.groupId, input.patientId))) throw AppError.notFound();
        await auditGroup(tx, actor, 'group.remove_patient', input.groupId, { patient_id: input.patientId });
        return summary(tx, input.groupId);
      });
    },

    /** The cohort and its patients: a view of PHI (names), audited. */
    async get(actor: StaffActor, input: { groupId: number }) {
      const [group] = await Promise.all([
        detail(db, input.groupId),
        auditView(db, {
          actorAdminId: actor.adminId,
          programId: programOf(actor).id,
          action: 'group.view',
          subjectType: 'group',
          subjectId: input.groupId,
          ip: actor.ip,
        }),
      ]);
      return group;
    },

    async delete(actor: StaffActor, input: { groupId: number }) {
      await db.transaction(async (tx) => {
        await auditGroup(tx, actor, 'group.delete', input.groupId);
        await deleteGroup(tx, input.groupId);
      });
    },

    async addUsers(actor: StaffActor, input: { groupId: number; patientIds: number[] }) {
      const program = programOf(actor);
      return db.transaction(async (tx) => {
        const added = await addAll(tx, actor, input.groupId, program.id, input.patientIds);
        if (added) await auditGroup(tx, actor, 'group.add_patients', input.groupId, { patients: added });
        return summary(tx, input.groupId);
      });
    },

    /** The cohorts of a patient the actor works with (404 for any other patient). */
    async ofPatient(actor: StaffActor, input: { patientId: number }) {
      if ((await patientsWithin(db, actor.adminId, [input.patientId])).length === 0)
        throw AppError.notFound();
      return { data: await groupsOfPatient(db, input.patientId, await programIdsOfAdmin(db, actor.adminId)) };
    },
  };
}

export type GroupsService = ReturnType<typeof createGroupsService>;
