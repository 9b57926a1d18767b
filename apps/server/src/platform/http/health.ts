import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config';
import { access } from '../access/rules';
import type { Database } from '../db/client';
import { migrationsApplied } from '../db/migrate';
import type { App } from './types';

export async function healthRoutes(app: App, deps: { db: Database; config: Config }) {
  app.get('/healthz', { config: { access: access.public() }, schema: { hide: true } }, async () => ({
    status: 'ok',
  }));

  app.get('/readyz', { config: { access: access.public() }, schema: { hide: true } }, async (_req, reply) => {
    try {
      await deps.db.execute(sql`SELECT 1`);
      if (!(await migrationsApplied(deps.db)))
        return reply.status(503).send({ status: 'migrations pending' });
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'database unreachable' });
    }
  });

  app.get(
    '/api/config',
    {
      config: { access: access.public() },
      schema: {
        tags: ['config'],
        response: {
          200: z.object({
            idle_timeout_seconds: z.number(),
            default_program_slug: z.string(),
            password_max_age_days: z.number(),
          }),
        },
      },
    },
    async () => ({
      idle_timeout_seconds: deps.config.IDLE_TIMEOUT_SECONDS,
      default_program_slug: 'caredeck',
      password_max_age_days: deps.config.PASSWORD_MAX_AGE_DAYS,
    }),
  );
}
