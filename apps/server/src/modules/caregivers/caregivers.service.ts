import type { StaffActor } from '../../platform/access/actor';
import { audit, auditView } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { findPatientInProgram } from '../patients/record.queries';
import {
  caregiverInProgram,
  caregiversOfPatient,
  insertCaregiver,
  linkCaregiver,
  listCaregivers,
  unlinkCaregiver,
} from './caregivers.queries';

function programOf(actor: StaffActor) {
  if (!actor.program) throw new Error('a caregiver use case needs the program the access hook resolved');
  return actor.program;
}

export function createCaregiversService(deps: { db: Database }) {
  const { db } = deps;
  return {
    async create(
      actor: StaffActor,
      input: {
        first_name: string;
        last_name: string;
        relationship: string;
        phone_number?: string | null;
        email?: string | null;
        notes?: string | null;
      },
    ) {
      const program = programOf(actor);
      return db.transaction(async (tx) => {
        const created = await insertCaregiver(tx, {
          ...input,
          programId: program.id,
          createdBy: actor.adminId,
        });
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId: program.id,
          action: 'caregiver.create',
          subjectType: 'caregiver',
          subjectId: created.id,
          ip: actor.ip,
        });
        return created;
      });
    },

    async list(actor: StaffActor, input: { search?: string }) {
      return { data: await listCaregivers(db, programOf(actor).id, input.search) };
    },

    /** Links or unlinks a caregiver of the patient's program; another program's caregiver is unknown (404). */
    async setLink(actor: StaffActor, input: { patientId: number; caregiverId: number; linked: boolean }) {
      const program = programOf(actor);
      return db.transaction(async (tx) => {
        if (!(await caregiverInProgram(tx, input.caregiverId, program.id))) throw AppError.notFound();
        const changed = input.linked
          ? await linkCaregiver(tx, input.patientId, input.caregiverId)
          : await unlinkCaregiver(tx, input.patientId, input.caregiverId);
        if (!changed && !input.linked) throw AppError.notFound();
        if (changed)
          await audit(tx, {
            actorAdminId: actor.adminId,
            programId: program.id,
            action: input.linked ? 'patient.caregiver_link' : 'patient.caregiver_unlink',
            subjectType: 'patient',
            subjectId: input.patientId,
            details: { caregiver_id: input.caregiverId },
            ip: actor.ip,
          });
        return { data: await caregiversOfPatient(tx, input.patientId) };
      });
    },

    async ofPatient(actor: StaffActor, input: { patientId: number }) {
      const program = programOf(actor);
      if (!(await findPatientInProgram(db, input.patientId, program.id))) throw AppError.notFound();
      const [data] = await Promise.all([
        caregiversOfPatient(db, input.patientId),
        auditView(db, {
          actorAdminId: actor.adminId,
          programId: program.id,
          action: 'patient.caregivers_view',
          subjectType: 'patient',
          subjectId: input.patientId,
          ip: actor.ip,
        }),
      ]);
      return { data };
    },
  };
}

export type CaregiversService = ReturnType<typeof createCaregiversService>;
