import { type AuditAction, isCalendarDay, MED_REC_MESSAGES, type MedRecBody } from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { audit, auditView } from '../../platform/audit/audit';
import type { Database, Queryable } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import {
  insertMedRecItem,
  type MedRecKey,
  medRecItems,
  medRecStatusOf,
  setMethod,
  toggleArchived,
  updateMedRecItem,
} from './reconciliation.queries';

const DATE_KEYS = new Set<MedRecKey>(['start_date', 'last_taken']);

function programOf(actor: StaffActor, wanted?: number) {
  const program = actor.program;
  if (!program) throw new Error('reconciliation needs the program the access hook resolved');
  // The console names its current program: a patient of another one is not found there.
  if (wanted !== undefined && wanted !== program.id) throw AppError.notFound();
  return program;
}

export function createReconciliationService(deps: { db: Database }) {
  const { db } = deps;

  async function item(tx: Queryable, patientId: number, id: number) {
    const [found] = await medRecItems(tx, patientId, id);
    if (!found) throw AppError.notFound();
    return found;
  }

  const log = (tx: Queryable, actor: StaffActor, action: AuditAction, patientId: number, details?: object) =>
    audit(tx, {
      actorAdminId: actor.adminId,
      programId: actor.program?.id ?? null,
      action,
      subjectType: 'patient',
      subjectId: patientId,
      details: details as Record<string, unknown> | undefined,
      ip: actor.ip,
    });

  async function list(tx: Queryable, patientId: number) {
    const [data, status] = await Promise.all([medRecItems(tx, patientId), medRecStatusOf(tx, patientId)]);
    return { data, ...status } as {
      data: typeof data;
      method: null;
      reconciled_at: string | null;
      reconciled_by: { id: number; name: string } | null;
    };
  }

  return {
    async list(actor: StaffActor, input: { patientId: number; programId?: number }) {
      const program = programOf(actor, input.programId);
      const [answer] = await Promise.all([
        list(db, input.patientId),
        auditView(db, {
          actorAdminId: actor.adminId,
          programId: program.id,
          action: 'patient.med_rec_view',
          subjectType: 'patient',
          subjectId: input.patientId,
          ip: actor.ip,
        }),
      ]);
      return answer;
    },

    async store(actor: StaffActor, input: { patientId: number; values: MedRecBody }) {
      const program = programOf(actor);
      return db.transaction(async (tx) => {
        const id = await insertMedRecItem(tx, input.patientId, program.id, actor.adminId, input.values);
        await log(tx, actor, 'patient.med_rec_add', input.patientId, { medication_id: id });
        return { message: MED_REC_MESSAGES.added, data: await item(tx, input.patientId, id) };
      });
    },

    async update(
      actor: StaffActor,
      input: { patientId: number; medicationId: number; values: Partial<Record<MedRecKey, string | null>> },
    ) {
      programOf(actor);
      return db.transaction(async (tx) => {
        if (!(await updateMedRecItem(tx, input.patientId, input.medicationId, actor.adminId, input.values)))
          throw AppError.notFound();
        await log(tx, actor, 'patient.med_rec_update', input.patientId, {
          medication_id: input.medicationId,
          fields: Object.keys(input.values),
        });
        return {
          message: MED_REC_MESSAGES.updated,
          data: await item(tx, input.patientId, input.medicationId),
        };
      });
    },

    /** One field, validated as its form field would be (a date is a date, the name is not blank). */
    async updateInput(
      actor: StaffActor,
      input: { patientId: number; medicationId: number; key: MedRecKey; value: string | null },
    ) {
      const value = input.value === '' ? null : input.value;
      if (input.key === 'name' && !value) throw AppError.validation({ value: ['Enter the medication.'] });
      if (DATE_KEYS.has(input.key) && value !== null && !isCalendarDay(value))
        throw AppError.validation({ value: ['Use the format YYYY-MM-DD.'] });
      if (input.key !== 'notes' && value && value.length > 200)
        throw AppError.validation({ value: ['At most 200 characters.'] });
      return this.update(actor, {
        patientId: input.patientId,
        medicationId: input.medicationId,
        values: { [input.key]: value },
      });
    },

    async archive(actor: StaffActor, input: { patientId: number; medicationId: number }) {
      programOf(actor);
      return db.transaction(async (tx) => {
        if (!(await toggleArchived(tx, input.patientId, input.medicationId, actor.adminId)))
          throw AppError.notFound();
        const data = await item(tx, input.patientId, input.medicationId);
        await log(tx, actor, 'patient.med_rec_archive', input.patientId, {
          medication_id: input.medicationId,
          archived: data.archived,
        });
        return { message: MED_REC_MESSAGES.archived, data };
      });
    },

    async setMethod(actor: StaffActor, input: { patientId: number; method: string }) {
      programOf(actor);
      return db.transaction(async (tx) => {
        await setMethod(tx, input.patientId, input.method, actor.adminId);
        await log(tx, actor, 'patient.med_rec_reconciled', input.patientId, { method: input.method });
        return list(tx, input.patientId);
      });
    },
  };
}

export type ReconciliationService = ReturnType<typeof createReconciliationService>;
