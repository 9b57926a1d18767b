import {
  type AuditAction,
  type CreatePatientInput,
  normalisePhone,
  PATIENT_MESSAGES,
  type PatientRecord,
  pageOf,
  type UpdatePatientInput,
} from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { audit, auditView } from '../../platform/audit/audit';
import type { Database, Queryable } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import {
  allPatientsOfProgram,
  auditHistory,
  findDuplicates,
  findPatientInProgram,
  insertPatient,
  moveHomeProgram,
  mrnTaken,
  patientsWithin,
  programIdsOfAdmin,
  programsOfAdmin,
  recordStatus,
  replaceEnrolments,
  searchPatients,
  setActive,
  setStatuses,
  staffOutsideProgram,
  statusOf,
  updateNotificationSettings,
  updatePatientFields,
} from './record.queries';

/** The program the access hook resolved for a program- or object-scoped route. */
function programOf(actor: StaffActor) {
  if (!actor.program) throw new Error('a patient use case needs the program the access hook resolved');
  return actor.program;
}

/** The fields a change touched, never their values (audit details carry no PHI). */
export function auditPatient(
  db: Queryable,
  actor: StaffActor,
  action: AuditAction,
  patientId: number,
  details?: object,
) {
  return audit(db, {
    actorAdminId: actor.adminId,
    programId: actor.program?.id ?? null,
    action,
    subjectType: 'patient',
    subjectId: patientId,
    details: details as Record<string, unknown> | undefined,
    ip: actor.ip,
  });
}

/** A status change's reason may name clinical facts: the audit row records that one was given, never its text. */
function reasonGiven(reason: string | undefined) {
  return reason ? { reason_given: true } : {};
}

export function createPatientRecordService(deps: { db: Database }) {
  const { db } = deps;

  /** Physician and assigned staff must work in the program; an MRN is unique in it. 422 otherwise. */
  async function checkReferences(
    tx: Queryable,
    programId: number,
    input: UpdatePatientInput,
    exceptId: number | null,
  ): Promise<void> {
    const errors: Record<string, string[]> = {};
    const staff = [input.physician_id, input.assigned_admin_id].filter(
      (id): id is number => typeof id === 'number',
    );
    const outside = await staffOutsideProgram(tx, programId, staff);
    if (input.physician_id && outside.includes(input.physician_id))
      errors.physician_id = ['Choose a physician of this program.'];
    if (input.assigned_admin_id && outside.includes(input.assigned_admin_id))
      errors.assigned_admin_id = ['Choose a staff member of this program.'];
    if (input.mrn && (await mrnTaken(tx, programId, input.mrn, exceptId)))
      errors.mrn = [PATIENT_MESSAGES.mrnTaken];
    if (Object.keys(errors).length > 0) throw AppError.validation(errors);
  }

  async function reload(tx: Queryable, patientId: number, programId: number): Promise<PatientRecord> {
    const record = await findPatientInProgram(tx, patientId, programId);
    if (!record) throw AppError.notFound(PATIENT_MESSAGES.notInProgram);
    return record;
  }

  return {
    /** Enrols a patient in the actor's program: one transaction, status history and audit row included. */
    async create(actor: StaffActor, input: CreatePatientInput): Promise<PatientRecord> {
      const program = programOf(actor);
      return db.transaction(async (tx) => {
        await checkReferences(tx, program.id, input, null);
        const id = await insertPatient(tx, program.id, input);
        await recordStatus(tx, id, actor.adminId, { source: 'enrolment' });
        await auditPatient(tx, actor, 'patient.create', id);
        return reload(tx, id, program.id);
      });
    },

    /** The record, audited as a PHI view. */
    async get(actor: StaffActor, input: { patientId: number }): Promise<PatientRecord> {
      const program = programOf(actor);
      const record = await findPatientInProgram(db, input.patientId, program.id);
      // Only a record shown is a view: a 404 (no such patient here) writes nothing.
      if (!record) throw AppError.notFound();
      await auditView(db, {
        actorAdminId: actor.adminId,
        programId: program.id,
        action: 'patient.view',
        subjectType: 'patient',
        subjectId: input.patientId,
        ip: actor.ip,
      });
      return record;
    },

    async profileViewed(actor: StaffActor, input: { patientId: number }): Promise<void> {
      await auditView(db, {
        actorAdminId: actor.adminId,
        programId: programOf(actor).id,
        action: 'patient.profile_viewed',
        subjectType: 'patient',
        subjectId: input.patientId,
        ip: actor.ip,
      });
    },

    /** Possible duplicates in the program before saving (the patient being edited excluded). */
    async duplicates(
      actor: StaffActor,
      input: {
        exceptId: number;
        first_name?: string;
        last_name?: string;
        dob?: string;
        email?: string;
        phone_number?: string;
        mrn?: string;
      },
    ) {
      const program = programOf(actor);
      // A saved patient being edited must be one of this program's (another program's answers 404).
      if (input.exceptId !== 0 && !(await findPatientInProgram(db, input.exceptId, program.id)))
        throw AppError.notFound();
      const matches = await findDuplicates(db, [program.id], {
        exceptId: input.exceptId,
        firstName: input.first_name,
        lastName: input.last_name,
        dob: input.dob,
        email: input.email,
        phone: input.phone_number ? normalisePhone(input.phone_number) : null,
        mrn: input.mrn,
      });
      return { exists: matches.length > 0, matches };
    },

    async update(actor: StaffActor, input: { patientId: number; changes: UpdatePatientInput }) {
      const program = programOf(actor);
      return db.transaction(async (tx) => {
        await checkReferences(tx, program.id, input.changes, input.patientId);
        const changed = await updatePatientFields(tx, input.patientId, input.changes);
        if (changed.length > 0)
          await auditPatient(tx, actor, 'patient.update', input.patientId, { fields: changed });
        return reload(tx, input.patientId, program.id);
      });
    },

    /** Moves the patient's home program; the actor must work in both, inside one enterprise. */
    async changeProgram(actor: StaffActor, input: { patientId: number; from: number; to: number }) {
      const program = programOf(actor);
      if (input.from !== program.id)
        throw AppError.validation({ old_program_id: [PATIENT_MESSAGES.oldProgram] });
      if (input.to === input.from)
        throw AppError.validation({ new_program_id: [PATIENT_MESSAGES.samePrograms] });
      return db.transaction(async (tx) => {
        const [target] = await programsOfAdmin(tx, actor.adminId, [input.to]);
        // A program the actor does not work in, or of another enterprise, is as good as unknown.
        if (!target || target.enterprise_id !== program.enterpriseId) throw AppError.notFound();
        if (!(await moveHomeProgram(tx, input.patientId, input.from, input.to)))
          throw AppError.validation({ old_program_id: [PATIENT_MESSAGES.oldProgram] });
        await auditPatient(tx, actor, 'patient.change_program', input.patientId, {
          from: input.from,
          to: input.to,
        });
        return reload(tx, input.patientId, input.to);
      });
    },

    /** The programs the patient is enrolled in: the home program stays, every other must be the actor's. */
    async setPrograms(actor: StaffActor, input: { patientId: number; programIds: number[] }) {
      const program = programOf(actor);
      const wanted = [...new Set(input.programIds)];
      if (!wanted.includes(program.id))
        throw AppError.validation({ programs: [PATIENT_MESSAGES.homeProgramKept] });
      return db.transaction(async (tx) => {
        const allowed = await programsOfAdmin(tx, actor.adminId, wanted);
        if (
          allowed.length !== wanted.length ||
          allowed.some(
            (p) =>
              p.enterprise_id !== program.enterpriseId || (p.enterprise_id === null && p.id !== program.id),
          )
        )
          throw AppError.notFound();
        await replaceEnrolments(tx, input.patientId, wanted);
        await auditPatient(tx, actor, 'patient.set_programs', input.patientId, { programs: wanted });
        return reload(tx, input.patientId, program.id);
      });
    },

    async setActive(actor: StaffActor, input: { patientId: number; active: boolean; programId?: number }) {
      const program = programOf(actor);
      if (input.programId !== undefined && input.programId !== program.id)
        throw AppError.notFound(PATIENT_MESSAGES.notInProgram);
      return db.transaction(async (tx) => {
        const before = await reload(tx, input.patientId, program.id);
        if (before.active !== input.active) {
          await setActive(tx, input.patientId, input.active);
          const after = await reload(tx, input.patientId, program.id);
          if (after.status !== before.status)
            await recordStatus(tx, input.patientId, actor.adminId, {
              source: 'activation',
              previous: before.status,
            });
          await auditPatient(
            tx,
            actor,
            input.active ? 'patient.activate' : 'patient.deactivate',
            input.patientId,
          );
          return after;
        }
        return before;
      });
    },

    async notificationSettings(
      actor: StaffActor,
      input: { patientId: number; changes: Parameters<typeof updateNotificationSettings>[2] },
    ) {
      return db.transaction(async (tx) => {
        const settings = await updateNotificationSettings(tx, input.patientId, input.changes);
        await auditPatient(tx, actor, 'patient.notification_settings', input.patientId, {
          fields: Object.keys(input.changes),
        });
        return settings;
      });
    },

    /**
     * The status and its history. The history carries the reasons given (free text that may be PHI, ADR 052), so
     * the read is audited as a PHI view, as the status log's is; the row is written beside the read, not after it.
     */
    async status(actor: StaffActor, input: { patientId: number }) {
      const program = programOf(actor);
      const [status] = await Promise.all([
        statusOf(db, input.patientId),
        auditView(db, {
          actorAdminId: actor.adminId,
          programId: program.id,
          action: 'patient.status_history_view',
          subjectType: 'patient',
          subjectId: input.patientId,
          ip: actor.ip,
        }),
      ]);
      if (!status) throw AppError.notFound();
      return status;
    },

    /** The reason, if any, goes to the status history; the audit row says only that one was given (ADR 052). */
    async setStatus(
      actor: StaffActor,
      input: { patientId: number; value: PatientRecord['status']; reason?: string },
    ) {
      programOf(actor);
      return db.transaction(async (tx) => {
        const how = { source: 'single', reason: input.reason ?? null } as const;
        if ((await setStatuses(tx, [input.patientId], input.value, actor.adminId, how)) > 0)
          await auditPatient(tx, actor, 'patient.status', input.patientId, {
            status: input.value,
            ...reasonGiven(input.reason),
          });
        const status = await statusOf(tx, input.patientId);
        if (!status) throw AppError.notFound();
        return status;
      });
    },

    /** Every patient named must be one the actor works with, else nothing changes and the answer is 404. */
    async bulkStatus(
      actor: StaffActor,
      input: { patientIds: number[]; value: PatientRecord['status']; reason?: string },
    ) {
      const ids = [...new Set(input.patientIds)];
      return db.transaction(async (tx) => {
        const within = await patientsWithin(tx, actor.adminId, ids);
        if (within.length !== ids.length) throw AppError.notFound();
        const updated = await setStatuses(tx, ids, input.value, actor.adminId, {
          source: 'bulk',
          reason: input.reason ?? null,
        });
        await audit(tx, {
          actorAdminId: actor.adminId,
          action: 'patient.bulk_status',
          details: { status: input.value, patients: ids.length, updated, ...reasonGiven(input.reason) },
          ip: actor.ip,
        });
        return { updated };
      });
    },

    async auditHistory(actor: StaffActor, input: { patientId: number; page: number; per_page: number }) {
      const program = programOf(actor);
      if (!(await findPatientInProgram(db, input.patientId, program.id))) throw AppError.notFound();
      const { rows, total } = await auditHistory(db, input.patientId, input.page, input.per_page);
      return pageOf(rows, input, total);
    },

    /** Quick find across every program the actor works in (the Ctrl+K palette); audited without the text. */
    async search(actor: StaffActor, input: { search: string; limit: number }) {
      const programIds = await programIdsOfAdmin(db, actor.adminId);
      const data = programIds.length ? await searchPatients(db, programIds, input.search, input.limit) : [];
      if (data.length > 0)
        await auditView(db, {
          actorAdminId: actor.adminId,
          action: 'patients.search',
          details: { returned: data.length },
          ip: actor.ip,
        });
      return { data };
    },

    async allPatients(actor: StaffActor) {
      const program = programOf(actor);
      const data = await allPatientsOfProgram(db, program.id);
      await auditView(db, {
        actorAdminId: actor.adminId,
        programId: program.id,
        action: 'patients.all',
        details: { returned: data.length },
        ip: actor.ip,
      });
      return { data, total: data.length };
    },
  };
}

export type PatientRecordService = ReturnType<typeof createPatientRecordService>;
