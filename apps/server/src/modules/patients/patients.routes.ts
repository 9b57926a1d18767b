import { errorBody, idParam, patientListQuery, patientListResponse } from '@caredeck/contracts';
import { z } from 'zod';
import { scopedEnterprise, scopedProgram, staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import type { App } from '../../platform/http/types';
import type { PatientsService } from './patients.service';

const tags = ['patients'];
const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 422: errorBody };

export async function patientsRoutes(app: App, deps: { patients: PatientsService }) {
  const { patients } = deps;

  app.get(
    '/api/v1/programs/:programId/users',
    {
      config: { access: access.program() },
      schema: {
        tags,
        params: z.object({ programId: idParam }),
        querystring: patientListQuery,
        response: { 200: patientListResponse, ...errors },
      },
    },
    async (req) => {
      const program = scopedProgram(req);
      const q = req.query;
      return patients.list(
        { adminId: staffActor(req).adminId, programId: program.id, ip: req.ip },
        {
          programIds: [program.id],
          name: q.name,
          sortBy: q.sort_by,
          sortDirection: q.sort_direction,
          page: q.page,
          perPage: q.per_page,
        },
      );
    },
  );

  // Enterprise scope: every program of the enterprise the user may see; program_id narrows it, and 1 or blank means all.
  app.get(
    '/api/v1/enterprises/:enterpriseId/patients',
    {
      config: { access: access.enterprise() },
      schema: {
        tags,
        params: z.object({ enterpriseId: idParam }),
        querystring: patientListQuery.extend({
          program_id: z.union([z.literal(''), idParam]).optional(),
        }),
        response: { 200: patientListResponse, ...errors },
      },
    },
    async (req) => {
      const enterprise = scopedEnterprise(req);
      const q = req.query;
      const narrowed =
        q.program_id && q.program_id !== 1
          ? enterprise.programIds.filter((id) => id === q.program_id)
          : enterprise.programIds;
      return patients.list(
        { adminId: staffActor(req).adminId, programId: null, ip: req.ip },
        {
          programIds: narrowed,
          name: q.name,
          sortBy: q.sort_by,
          sortDirection: q.sort_direction,
          page: q.page,
          perPage: q.per_page,
        },
      );
    },
  );
}
