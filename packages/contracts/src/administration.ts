import { z } from 'zod';
import { bodyId, idParam, line, paged, pageQuery, queryInt } from './common';
import { optionalPhone } from './patient-record';
import { defineRoute } from './route';
import { MODULES, programType, staffRole } from './tenancy';

/** The spec's messages for administration (02 §8) and the designed ones beside them (ADR 040). */
export const ADMINISTRATION_MESSAGES = {
  programCreated: 'Program Created',
  programUpdated: 'Program Updated',
  programUsersUpdated: 'Program Users Updated!',
  enterpriseUpdated: 'Enterprise Updated',
  adminUpdated: 'Admin Updated',
  unableToCreate: 'Unable to create, try again later',
  slugTaken: 'The slug has already been taken.',
  enterpriseRequired: 'Choose the enterprise the program belongs to.',
  selfDisable: 'You cannot disable your own account.',
  selfRoles: 'You cannot change your own roles; ask another administrator.',
  notAdministered:
    'They also work in programs you do not administer: change their roles in this program instead.',
  rolesNeedProgram: 'Choose the program the roles apply to.',
  nothingToChange: 'Nothing to change.',
  badImage: 'The logo must be a PNG, JPEG or WebP picture of at most 256 KB.',
} as const;

/** Largest logo accepted for a program or an enterprise, in bytes (decoded). */
export const LOGO_MAX_BYTES = 256 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/**
 * A logo sent inside a JSON body as a data URL (`data:image/png;base64,…`); null removes it. The server
 * checks the bytes themselves (magic numbers), not only the declared type. SVG is refused (scripts).
 */
export const logoField = z
  .string()
  .max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 64, ADMINISTRATION_MESSAGES.badImage)
  .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+=*$/, ADMINISTRATION_MESSAGES.badImage)
  .nullable();

const personName = (what: string) =>
  line().trim().min(1, `Enter the ${what}.`).max(100, `The ${what} may not be greater than 100 characters.`);

const programRef = z.object({ id: z.number().int(), name: z.string() });

/** A staff member as another staff member sees them: only the programs and enterprises both share. */
export const adminDetail = z.object({
  id: z.number().int(),
  email: z.string(),
  given_name: z.string(),
  family_name: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  phone_number: z.string().nullable(),
  disabled: z.boolean(),
  must_change_password: z.boolean(),
  mfa_enabled: z.boolean(),
  created_at: z.string(),
  programs: z.array(
    programRef.extend({ enterprise_id: z.number().int().nullable(), roles: z.array(staffRole) }),
  ),
  enterprises: z.array(z.object({ id: z.number().int(), name: z.string(), roles: z.array(staffRole) })),
  /** Whether the caller administers every program and enterprise the member works in (may edit, disable). */
  can_manage: z.boolean(),
});
export type AdminDetail = z.infer<typeof adminDetail>;

export const adminListItem = z.object({
  id: z.number().int(),
  email: z.string(),
  given_name: z.string(),
  family_name: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  disabled: z.boolean(),
  /** Roles over the programs (and enterprises) the list covers. */
  roles: z.array(staffRole),
  programs: z.array(programRef),
});
export type AdminListItem = z.infer<typeof adminListItem>;

export const ADMIN_STATUSES = ['active', 'disabled', 'all'] as const;
export const adminListQuery = pageQuery.extend({
  search: line().trim().max(100).default(''),
  program_id: queryInt(1, Number.MAX_SAFE_INTEGER).optional(),
  role: staffRole.optional(),
  status: z.enum(ADMIN_STATUSES).default('active'),
});

export const updateAdminBody = z
  .object({
    program_id: bodyId.optional(),
    roles: z
      .array(staffRole.exclude(['enterprise_admin']))
      .max(10)
      .optional(),
    disabled: z.boolean().optional(),
    given_name: personName('given name').optional(),
    family_name: personName('family name').optional(),
    title: line().trim().max(100).nullable().optional(),
    phone_number: optionalPhone,
  })
  .superRefine((b, ctx) => {
    if (b.roles && b.program_id === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['program_id'],
        message: ADMINISTRATION_MESSAGES.rolesNeedProgram,
      });
  });
export type UpdateAdminBody = z.input<typeof updateAdminBody>;

export const assignAdminsBody = z.object({
  program_id: bodyId,
  admin_ids: z.array(bodyId).min(1, 'Choose at least one person.').max(100),
  /** Roles to give; default: the program type's auto-roles (GET programs/auto-roles). */
  roles: z
    .array(staffRole.exclude(['enterprise_admin']))
    .min(1)
    .max(10)
    .optional(),
});
export type AssignAdminsBody = z.input<typeof assignAdminsBody>;

const slug = line()
  .trim()
  .toLowerCase()
  .min(2, 'The slug must be at least 2 characters.')
  .max(60, 'The slug may not be greater than 60 characters.')
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Use lower-case letters, digits and single hyphens.');

const programName = line()
  .trim()
  .min(2, 'Enter the program name.')
  .max(120, 'The name may not be greater than 120 characters.');

export const programModules = z.array(z.enum(MODULES)).max(MODULES.length);

export const createProgramBody = z.object({
  name: programName,
  /** Derived from the name when left out. */
  slug: slug.optional(),
  type: programType.default('monitoring'),
  enterprise_id: bodyId.optional(),
  modules: programModules.default([...MODULES]),
  image: logoField.optional(),
});
export type CreateProgramBody = z.input<typeof createProgramBody>;

export const updateProgramBody = z
  .object({
    name: programName.optional(),
    slug: slug.optional(),
    type: programType.optional(),
    modules: programModules.optional(),
    image: logoField.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), ADMINISTRATION_MESSAGES.nothingToChange);
export type UpdateProgramBody = z.input<typeof updateProgramBody>;

export const programDetail = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  type: programType,
  modules: z.array(z.string()),
  enterprise: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  has_image: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  counts: z.object({
    patients: z.number().int(),
    active_patients: z.number().int(),
    staff: z.number().int(),
    cohorts: z.number().int(),
  }),
  /** Whether the caller may change the program (its admins and its enterprise's admins). */
  can_manage: z.boolean(),
});
export type ProgramDetail = z.infer<typeof programDetail>;

export const enterpriseDetail = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  has_image: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  can_manage: z.boolean(),
  /** With `withRelations`: the programs the caller sees, and counts. */
  programs: z
    .array(
      programRef.extend({
        slug: z.string(),
        type: programType,
        patients: z.number().int(),
        staff: z.number().int(),
      }),
    )
    .optional(),
  admins: z.array(z.object({ id: z.number().int(), name: z.string() })).optional(),
});
export type EnterpriseDetail = z.infer<typeof enterpriseDetail>;

export const updateEnterpriseBody = z
  .object({
    name: line().trim().min(2, 'Enter the enterprise name.').max(120).optional(),
    image: logoField.optional(),
  })
  .refine((b) => b.name !== undefined || b.image !== undefined, ADMINISTRATION_MESSAGES.nothingToChange);
export type UpdateEnterpriseBody = z.input<typeof updateEnterpriseBody>;

export const historyEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  action: z.string(),
  actor: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  program: programRef.nullable(),
  subject_type: z.string().nullable(),
  subject_id: z.number().int().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type HistoryEntry = z.infer<typeof historyEntry>;

const withRelations = z.object({ withRelations: line().max(10).optional() });
const programParam = z.object({ programId: idParam });
const enterpriseParam = z.object({ enterpriseId: idParam });
const tags = ['administration'] as const;
const person = z.object({ id: z.number().int(), name: z.string(), title: z.string().nullable() });

/** Staff, programs and enterprises administration (02 §7 "Admins, programs, enterprises"; ADR 040). */
export const administrationContract = {
  admin: defineRoute({
    method: 'GET',
    path: '/api/v1/admins/:id',
    summary: 'A staff member: contact, state, and their roles in the programs the caller shares with them',
    tags,
    params: z.object({ id: idParam }),
    responses: { 200: z.object({ data: adminDetail }) },
  }),
  updateAdmin: defineRoute({
    method: 'PUT',
    path: '/api/v1/admins/:id',
    summary: "Set a member's roles in a program, their name and contact, or disable / enable the account",
    tags,
    params: z.object({ id: idParam }),
    body: updateAdminBody,
    responses: {
      200: z.object({
        message: z.literal(ADMINISTRATION_MESSAGES.adminUpdated),
        id: z.number().int(),
        program_id: z.number().int().nullable(),
        roles: z.array(z.string()).nullable(),
        data: adminDetail,
      }),
    },
  }),
  allAdmins: defineRoute({
    method: 'GET',
    path: '/api/v1/all-admins',
    summary: 'Every staff member of the programs and enterprises the caller sees, paged',
    tags,
    query: adminListQuery,
    responses: { 200: paged(adminListItem) },
  }),
  enterpriseAdmins: defineRoute({
    method: 'GET',
    path: '/api/v1/enterprises/:enterpriseId/admins',
    summary: "Staff of the enterprise's programs and its enterprise administrators, paged",
    tags,
    params: enterpriseParam,
    query: adminListQuery,
    responses: { 200: paged(adminListItem) },
  }),
  assignAdmins: defineRoute({
    method: 'POST',
    path: '/api/v1/assign-admins',
    summary: "Give staff of the program's enterprise roles in the program",
    tags,
    body: assignAdminsBody,
    responses: {
      200: z.object({
        message: z.literal(ADMINISTRATION_MESSAGES.programUsersUpdated),
        program_id: z.number().int(),
        roles: z.array(staffRole),
        added: z.array(z.number().int()),
      }),
    },
  }),
  physicians: defineRoute({
    method: 'GET',
    path: '/api/v1/physicians',
    summary: 'Physicians of the programs the caller sees (or of one program)',
    tags,
    query: z.object({ program_id: queryInt(1, Number.MAX_SAFE_INTEGER).optional() }),
    responses: {
      200: z.object({ data: z.array(person.extend({ program_ids: z.array(z.number().int()) })) }),
    },
  }),
  showProgram: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/show/:programId',
    tags,
    params: programParam,
    responses: { 200: z.object({ data: programDetail }) },
  }),
  createProgram: defineRoute({
    method: 'POST',
    path: '/api/v1/programs',
    summary: 'Create a program in an enterprise the caller administers',
    tags,
    body: createProgramBody,
    responses: {
      201: z.object({ message: z.literal(ADMINISTRATION_MESSAGES.programCreated), data: programDetail }),
    },
  }),
  updateProgram: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/update',
    tags,
    params: programParam,
    body: updateProgramBody,
    responses: {
      200: z.object({ message: z.literal(ADMINISTRATION_MESSAGES.programUpdated), data: programDetail }),
    },
  }),
  programImage: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/image',
    summary: "The program's logo (404 when it has none)",
    tags,
    params: programParam,
    responses: { 200: null },
    file: { contentType: 'image/png' },
  }),
  enterpriseImage: defineRoute({
    method: 'GET',
    path: '/api/v1/enterprises/:enterpriseId/image',
    summary: "The enterprise's logo (404 when it has none)",
    tags,
    params: enterpriseParam,
    responses: { 200: null },
    file: { contentType: 'image/png' },
  }),
  enterprise: defineRoute({
    method: 'GET',
    path: '/api/v1/enterprises/:enterpriseId',
    tags,
    params: enterpriseParam,
    query: withRelations,
    responses: { 200: z.object({ data: enterpriseDetail }) },
  }),
  updateEnterprise: defineRoute({
    method: 'POST',
    path: '/api/v1/enterprises/:enterpriseId',
    tags,
    params: enterpriseParam,
    body: updateEnterpriseBody,
    responses: {
      200: z.object({
        message: z.literal(ADMINISTRATION_MESSAGES.enterpriseUpdated),
        data: enterpriseDetail,
      }),
    },
  }),
  enterpriseHistory: defineRoute({
    method: 'GET',
    path: '/api/v1/enterprises/:enterpriseId/history',
    summary: 'Changes to the enterprise, its programs and their staff, newest first',
    tags,
    params: enterpriseParam,
    query: pageQuery,
    responses: { 200: paged(historyEntry) },
  }),
  programEnterprise: defineRoute({
    method: 'GET',
    path: '/api/v2/programs/:programId/enterprise',
    summary: 'The enterprise the program belongs to (null for a program on its own)',
    tags,
    params: programParam,
    responses: {
      200: z.object({ data: enterpriseDetail.omit({ programs: true, admins: true }).nullable() }),
    },
  }),
};
