import { z } from 'zod';
import { idParam, line } from './common';
import { defineRoute } from './route';

/** Staff roles. A role is held per program, except enterprise_admin which is held per enterprise. */
export const STAFF_ROLES = [
  'admin',
  'physician',
  'care_coordinator',
  'enterprise_admin',
  'pharma',
  'pharmacy',
] as const;
export const staffRole = z.enum(STAFF_ROLES);
export type StaffRole = z.infer<typeof staffRole>;

export const PROGRAM_TYPES = ['monitoring', 'pharma', 'pharmacy'] as const;
export const programType = z.enum(PROGRAM_TYPES);
export type ProgramType = z.infer<typeof programType>;

export const programSummary = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  type: programType,
  enterprise_id: z.number().int().nullable(),
});
export type ProgramSummary = z.infer<typeof programSummary>;

export const enterpriseSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
});
export type EnterpriseSummary = z.infer<typeof enterpriseSummary>;

export const autoRolesQuery = z.object({ type: programType });
export const autoRolesResponse = z.object({ type: programType, roles: z.array(staffRole) });

export const checkAccessResponse = z.object({ access: z.literal(true) });

/** Roles granted automatically when a staff member joins a program of each type. */
export const AUTO_ROLES: Record<ProgramType, readonly StaffRole[]> = {
  monitoring: ['care_coordinator'],
  pharma: ['pharma'],
  pharmacy: ['pharmacy'],
};

/** What each role may do; a user's permissions are the union over their roles. */
export const ROLE_PERMISSIONS: Record<StaffRole, readonly string[]> = {
  admin: [
    'patients.view',
    'patients.manage',
    'admins.manage',
    'programs.manage',
    'logs.view',
    'billing.manage',
  ],
  physician: ['patients.view', 'patients.manage', 'billing.view'],
  care_coordinator: ['patients.view', 'patients.manage'],
  enterprise_admin: [
    'patients.view',
    'patients.manage',
    'admins.manage',
    'programs.manage',
    'enterprises.manage',
    'logs.view',
  ],
  pharma: ['patients.view', 'reports.pharma'],
  pharmacy: ['patients.view', 'orders.manage'],
};

/** The modules a program offers (menu areas); stored per program. */
export const MODULES = ['patients', 'messenger', 'alerts', 'pipelines', 'reports', 'billing'] as const;

const tenancyTags = ['tenancy'] as const;

/** Programs, enterprises, roles and access checks (01 §6, §7; 02 §7 "Admins, programs, enterprises"). */
export const tenancyContract = {
  programs: defineRoute({
    method: 'GET',
    path: '/api/v1/programs',
    tags: tenancyTags,
    responses: { 200: z.object({ data: z.array(programSummary) }) },
  }),
  enterprises: defineRoute({
    method: 'GET',
    path: '/api/v1/enterprises',
    tags: tenancyTags,
    /** `withRelations=true` adds each enterprise's programs (those the caller sees). */
    query: z.object({ withRelations: line().max(10).optional() }),
    responses: {
      200: z.object({
        data: z.array(enterpriseSummary.extend({ programs: z.array(programSummary).optional() })),
      }),
    },
  }),
  autoRoles: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/auto-roles',
    tags: tenancyTags,
    query: autoRolesQuery,
    responses: { 200: autoRolesResponse },
  }),
  checkAccess: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id/check-access',
    tags: tenancyTags,
    params: z.object({ programId: idParam, id: idParam }),
    responses: { 200: checkAccessResponse },
  }),
  checkEnterpriseAccess: defineRoute({
    method: 'GET',
    path: '/api/v1/enterprises/:enterpriseId/users/:id/check-enterprise-access',
    tags: tenancyTags,
    params: z.object({ enterpriseId: idParam, id: idParam }),
    responses: { 200: checkAccessResponse },
  }),
  /** Staff who work in the program (a role there, or enterprise admin of its enterprise), by name. */
  programAdmins: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/admins',
    summary: 'Staff of the program with their roles there',
    tags: tenancyTags,
    params: z.object({ programId: idParam }),
    query: z.object({ withRelations: line().max(10).optional() }),
    responses: {
      200: z.object({
        data: z.array(
          z.object({
            id: z.number().int(),
            given_name: z.string(),
            family_name: z.string(),
            name: z.string(),
            title: z.string().nullable(),
            roles: z.array(staffRole),
          }),
        ),
      }),
    },
  }),
};
