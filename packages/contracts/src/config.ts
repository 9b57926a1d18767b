import { z } from 'zod';
import { defineRoute } from './route';

/** GET /api/config: public settings the console needs before sign-in. */
export const publicConfig = z.object({
  /** Inactivity before the console signs the user out; the server expires idle sessions after the same time. */
  idle_timeout_seconds: z.number().int().positive(),
  default_program_slug: z.string(),
  /** 0 turns password expiry off. */
  password_max_age_days: z.number().int().min(0),
});
export type PublicConfig = z.infer<typeof publicConfig>;

/** Public routes of the platform: health checks and the console's configuration. */
export const platformContract = {
  health: defineRoute({
    method: 'GET',
    path: '/healthz',
    hidden: true,
    responses: { 200: z.object({ status: z.literal('ok') }) },
  }),
  ready: defineRoute({
    method: 'GET',
    path: '/readyz',
    hidden: true,
    responses: { 200: z.object({ status: z.string() }) },
  }),
  config: defineRoute({
    method: 'GET',
    path: '/api/config',
    tags: ['config'],
    responses: { 200: publicConfig },
  }),
};
