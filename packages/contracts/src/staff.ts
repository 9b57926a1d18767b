import { z } from 'zod';
import { emailAddress } from './auth';
import { bodyId, idParam, line } from './common';
import { optionalPhone } from './patient-record';
import { defineRoute } from './route';
import { STAFF_ROLES } from './tenancy';

/** The spec's messages for staff accounts (01 §7 "Patient creation", §8). */
export const STAFF_MESSAGES = {
  created: 'New user has successfully been created!',
  emailTaken: 'The email has already been taken.',
  programRequired: 'Choose the program the new user will work in.',
} as const;

/** Roles a program administrator may give a new staff member (enterprise administration is granted elsewhere). */
export const PROGRAM_STAFF_ROLES = STAFF_ROLES.filter(
  (role): role is Exclude<(typeof STAFF_ROLES)[number], 'enterprise_admin'> => role !== 'enterprise_admin',
);

const name = (what: string) =>
  line().trim().min(1, `Enter the ${what}.`).max(100, `The ${what} may not be greater than 100 characters.`);

/**
 * A new staff member (01 §7: email, phone_number, given_name, family_name, title). `role` is the role in the
 * program (default care coordinator). The account gets a temporary password by e-mail and must choose its own
 * at first sign-in (the newPassword state).
 */
export const createStaffBody = z.object({
  email: emailAddress,
  phone_number: optionalPhone,
  given_name: name('given name'),
  family_name: name('family name'),
  title: line().trim().max(100).nullable().optional(),
  role: z.enum(PROGRAM_STAFF_ROLES).default('care_coordinator'),
});
export type CreateStaffBody = z.input<typeof createStaffBody>;
export type CreateStaffInput = z.output<typeof createStaffBody>;

export const staffMember = z.object({
  id: z.number().int(),
  email: z.string(),
  given_name: z.string(),
  family_name: z.string(),
  title: z.string().nullable(),
  phone_number: z.string().nullable(),
  program_id: z.number().int(),
  role: z.enum(PROGRAM_STAFF_ROLES),
  must_change_password: z.boolean(),
  created_at: z.string(),
});
export type StaffMember = z.infer<typeof staffMember>;
const created = z.object({ message: z.literal(STAFF_MESSAGES.created), data: staffMember });

const tags = ['staff'] as const;

/** Staff accounts created by program administrators (01 §7 "Patient creation"; 02 §7 "POST users/admin"). */
export const staffContract = {
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/users/admin',
    summary: 'Create a staff account in the program and e-mail its temporary password',
    tags,
    params: z.object({ programId: idParam }),
    body: createStaffBody,
    responses: { 201: created },
  }),
  /** The same without a program in the path: `program_id`, or the one program the caller administers. */
  createAnywhere: defineRoute({
    method: 'POST',
    path: '/api/v1/users/admin',
    summary: 'Create a staff account (program from the body, or the only program the caller administers)',
    tags,
    body: createStaffBody.extend({ program_id: bodyId.optional() }),
    responses: { 201: created },
  }),
};
