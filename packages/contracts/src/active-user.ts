import { z } from 'zod';
import { LANGUAGES, THEMES } from './constants';
import { enterpriseSummary, programSummary, staffRole } from './tenancy';

export const theme = z.enum(THEMES);
export const language = z.enum(LANGUAGES);

export const roleGrant = z.object({
  name: staffRole,
  program_id: z.number().int().nullable(),
  enterprise_id: z.number().int().nullable(),
});
export type RoleGrant = z.infer<typeof roleGrant>;

/** The signed-in staff user as GET /user returns it (spec 01 §3 "Active user"). */
export const activeUser = z.object({
  id: z.number().int(),
  email: z.string(),
  given_name: z.string(),
  family_name: z.string(),
  title: z.string().nullable(),
  about: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  picture: z.string().nullable(),
  status: z.string(),
  roles: z.array(roleGrant),
  permissions: z.array(z.string()),
  modules: z.array(z.string()),
  programs: z.array(programSummary),
  enterprises: z.array(enterpriseSummary),
  settings: z.object({ language, theme }),
  hipaa_consented_at: z.string().nullable(),
  tz: z.string().nullable(),
  is_internal: z.boolean(),
  mfa_enabled: z.boolean(),
});
export type ActiveUser = z.infer<typeof activeUser>;
