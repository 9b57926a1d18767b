import {
  AUTO_ROLES,
  autoRolesQuery,
  autoRolesResponse,
  checkAccessResponse,
  enterpriseSummary,
  errorBody,
  idParam,
  programSummary,
  updateAdminRolesBody,
} from '@caredeck/contracts';
import { z } from 'zod';
import { scopedEnterprise, scopedProgram, staffActor } from '../../platform/access/access.plugin';
import { access } from '../../platform/access/rules';
import type { App } from '../../platform/http/types';
import type { TenancyService } from './tenancy.service';

const tags = ['tenancy'];
const errors = { 401: errorBody, 403: errorBody, 404: errorBody, 422: errorBody };
const programUserParams = z.object({
  programId: idParam,
  id: idParam,
});
const enterpriseUserParams = z.object({
  enterpriseId: idParam,
  id: idParam,
});

export async function tenancyRoutes(app: App, deps: { tenancy: TenancyService }) {
  const { tenancy } = deps;

  app.get(
    '/api/v1/programs',
    {
      config: { access: access.staff() },
      schema: { tags, response: { 200: z.object({ data: z.array(programSummary) }), ...errors } },
    },
    async (req) => ({ data: await tenancy.programsOf(staffActor(req).adminId) }),
  );

  app.get(
    '/api/v1/enterprises',
    {
      config: { access: access.staff() },
      schema: { tags, response: { 200: z.object({ data: z.array(enterpriseSummary) }), ...errors } },
    },
    async (req) => ({ data: await tenancy.enterprisesOf(staffActor(req).adminId) }),
  );

  app.get(
    '/api/v1/programs/auto-roles',
    {
      config: { access: access.staff() },
      schema: { tags, querystring: autoRolesQuery, response: { 200: autoRolesResponse, ...errors } },
    },
    async (req) => ({ type: req.query.type, roles: [...AUTO_ROLES[req.query.type]] }),
  );

  app.get(
    '/api/v1/programs/:programId/users/:id/check-access',
    {
      config: { access: access.program() },
      schema: { tags, params: programUserParams, response: { 200: checkAccessResponse, ...errors } },
    },
    async (req) => {
      await tenancy.assertPatientInPrograms(req.params.id, [scopedProgram(req).id]);
      return { access: true as const };
    },
  );

  app.get(
    '/api/v1/enterprises/:enterpriseId/users/:id/check-enterprise-access',
    {
      config: { access: access.enterprise() },
      schema: { tags, params: enterpriseUserParams, response: { 200: checkAccessResponse, ...errors } },
    },
    async (req) => {
      await tenancy.assertPatientInPrograms(req.params.id, scopedEnterprise(req).programIds);
      return { access: true as const };
    },
  );

  app.put(
    '/api/v1/admins/:id',
    {
      config: { access: access.staff() },
      schema: {
        tags,
        params: z.object({ id: idParam }),
        body: updateAdminRolesBody,
        response: {
          200: z.object({ id: z.number(), program_id: z.number(), roles: z.array(z.string()) }),
          ...errors,
        },
      },
    },
    async (req) =>
      tenancy.updateProgramRoles(
        staffActor(req).adminId,
        req.params.id,
        req.body.program_id,
        req.body.roles,
        req.ip,
      ),
  );
}
