import { platformContract as c, DEFAULT_PROGRAM_SLUG } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config';
import { access } from '../access/rules';
import type { Database } from '../db/client';
import { migrationsApplied } from '../db/migrate';
import { route } from './route';
import type { App } from './types';

export async function healthRoutes(app: App, deps: { db: Database; config: Config }) {
  route(app, c.health, { access: access.public(), handler: async () => ({ status: 'ok' as const }) });

  route(app, c.ready, {
    access: access.public(),
    handler: async (_req, reply) => {
      try {
        await deps.db.execute(sql`SELECT 1`);
        if (!(await migrationsApplied(deps.db)))
          return reply.status(503).send({ status: 'migrations pending' }) as never;
        return { status: 'ready' };
      } catch {
        return reply.status(503).send({ status: 'database unreachable' }) as never;
      }
    },
  });

  route(app, c.config, {
    access: access.public(),
    handler: async () => ({
      idle_timeout_seconds: deps.config.IDLE_TIMEOUT_SECONDS,
      default_program_slug: DEFAULT_PROGRAM_SLUG,
      password_max_age_days: deps.config.PASSWORD_MAX_AGE_DAYS,
    }),
  });
}
