import { z } from 'zod';
import { bodyId, idParam } from './common';
import { defineRoute } from './route';

/**
 * 02 §3/§9: user-memory default settings per module and program — 'messenger' and 'billings' — plus
 * 'patients' for the worklist's saved views (issue 7; ADR 027).
 */
export const MEMORY_MODULES = ['messenger', 'billings', 'patients'] as const;
export const MEMORY_MAX_BYTES = 16_384;

export const MEMORY_MESSAGES = {
  stored: 'Data Stored',
  deleted: 'Settings deleted',
  tooLarge: `Settings of at most ${MEMORY_MAX_BYTES / 1024} KiB.`,
} as const;

const settings = z
  .record(z.string(), z.unknown())
  .refine((v) => JSON.stringify(v).length <= MEMORY_MAX_BYTES, MEMORY_MESSAGES.tooLarge);

export const userMemory = z.object({
  module_name: z.enum(MEMORY_MODULES),
  program_id: z.number().int(),
  default_settings: z.record(z.string(), z.unknown()),
  updated_at: z.string(),
});
export type UserMemory = z.infer<typeof userMemory>;

const tags = ['user memory'] as const;
const key = { module_name: z.enum(MEMORY_MODULES), program_id: bodyId };

/** 02 §7 "User memory": settings a user keeps per module and program. */
export const memoryContract = {
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/user-memory',
    summary: "The signed-in user's settings of a module in a program (null when none are kept)",
    tags,
    query: z.object({ module_name: z.enum(MEMORY_MODULES), program_id: idParam }),
    responses: { 200: z.object({ data: userMemory.nullable() }) },
  }),
  save: defineRoute({
    method: 'POST',
    path: '/api/v1/user-memory',
    summary: 'Keep (replace) the settings of a module in a program',
    tags,
    body: z.object({ ...key, default_settings: settings }),
    responses: { 200: z.object({ message: z.string(), data: userMemory }) },
  }),
  remove: defineRoute({
    method: 'POST',
    path: '/api/v1/user-memory/delete',
    summary: 'Forget the settings of a module in a program',
    tags,
    body: z.object(key),
    responses: { 200: z.object({ message: z.string() }) },
  }),
  updateDefault: defineRoute({
    method: 'POST',
    path: '/api/v1/settings/update-default',
    summary: 'Change some of the default settings of a module (the given keys replace those kept)',
    tags,
    body: z.object({ ...key, default_settings: settings }),
    responses: { 200: z.object({ message: z.string(), data: userMemory }) },
  }),
};
