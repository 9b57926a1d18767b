import type { StaffActor } from '../../platform/access/actor';
import { scopeOf } from '../../platform/access/scope';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { patientInPrograms, programStaff, visibleEnterprises, visiblePrograms } from './tenancy.queries';

export const ADMIN_PROGRAM_ROLES_UPDATED = 'AdminProgramRolesUpdated';

export function createTenancyService(deps: { db: Database }) {
  const { db } = deps;
  return {
    async programsOf(actor: StaffActor) {
      return (await visiblePrograms(db, actor.adminId)).map(({ modules: _m, ...p }) => p);
    },

    /** With relations: each enterprise's programs the actor sees. */
    async enterprisesOf(actor: StaffActor, withRelations = false) {
      const enterprises = await visibleEnterprises(db, actor.adminId);
      if (!withRelations) return enterprises;
      const programs = (await visiblePrograms(db, actor.adminId)).map(({ modules: _m, ...p }) => p);
      return enterprises.map((e) => ({ ...e, programs: programs.filter((p) => p.enterprise_id === e.id) }));
    },

    async programAdmins(actor: StaffActor) {
      if (!actor.program) throw new Error('programAdmins needs the program the access hook resolved');
      return { data: await programStaff(db, actor.program.id) };
    },

    /** 404 unless the patient belongs to the request's program, or to a program of its enterprise the actor sees. */
    async checkPatientAccess(actor: StaffActor, input: { patientId: number }): Promise<{ access: true }> {
      if (!(await patientInPrograms(db, input.patientId, scopeOf(actor).programIds)))
        throw AppError.notFound();
      return { access: true };
    },
  };
}

export type TenancyService = ReturnType<typeof createTenancyService>;
