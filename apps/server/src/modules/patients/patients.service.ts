import { type Paged, type PatientListItem, pageOf } from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { auditView } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import { listPatients, type PatientListFilter } from './patients.queries';

export function createPatientsService(deps: { db: Database }) {
  const { db } = deps;
  return {
    /** One page of patients of the given programs; the view is audited (PHI), without the search text. */
    async list(
      actor: StaffActor,
      filter: Omit<PatientListFilter, 'adminId'>,
    ): Promise<Paged<PatientListItem>> {
      const { rows, total } = await listPatients(db, { ...filter, adminId: actor.adminId });
      const { query } = filter;
      await auditView(db, {
        actorAdminId: actor.adminId,
        programId: actor.program?.id ?? null,
        action: 'patients.list',
        details: {
          page: query.page,
          per_page: query.per_page,
          searched: Boolean(query.name),
          returned: rows.length,
        },
        ip: actor.ip,
      });
      return pageOf(rows, query, total);
    },
  };
}

export type PatientsService = ReturnType<typeof createPatientsService>;
