import { patientListQuery } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { activeUserRow } from '../apps/server/src/modules/identity/user.queries';
import { listPatients } from '../apps/server/src/modules/patients/patients.queries';
import { createTokenService } from '../apps/server/src/platform/auth/tokens';
import { createDatabase, type Database } from '../apps/server/src/platform/db/client';

/**
 * The bare baseline of DESIGN §3 / issue 6 §3: Fastify and a pg pool of the same size on the same database,
 * doing the same token check (HS256 verify plus one statement that the session is live and its owner
 * enabled) and the same page query (or user read) as the product, and nothing else: no access rules, no role lookup, no
 * audit row, no response schema, no logging. The product's figures are read against it, measured in the
 * same run, alternating.
 */
export async function startBaseline(input: {
  url: string;
  jwtSecret: string;
  idleSeconds: number;
  maxAgeSeconds: number;
}): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const db: Database = createDatabase(input.url, 10);
  const tokens = createTokenService(input.jwtSecret, 900);
  const app: FastifyInstance = Fastify({ logger: false });

  async function session(authorization: string | undefined): Promise<number | null> {
    const claims = authorization?.startsWith('Bearer ')
      ? await tokens.verifyAccess(authorization.slice(7), 'staff')
      : null;
    if (!claims) return null;
    const res = await db.execute<{ admin_id: number }>(sql`
      SELECT s.admin_id FROM auth_sessions s JOIN admins a ON a.id = s.admin_id
      WHERE s.public_id = ${claims.sid} AND s.revoked_at IS NULL AND a.disabled_at IS NULL
        AND s.last_activity_at > now() - make_interval(secs => ${input.idleSeconds})
        AND s.created_at > now() - make_interval(secs => ${input.maxAgeSeconds})`);
    return res.rows[0]?.admin_id ?? null;
  }

  app.get<{ Params: { programId: string }; Querystring: Record<string, string> }>(
    '/api/v1/programs/:programId/users',
    async (req, reply) => {
      const adminId = await session(req.headers.authorization);
      if (adminId === null) return reply.code(401).send({ message: 'Unauthenticated.' });
      const query = patientListQuery.parse(req.query);
      const { rows, total } = await listPatients(db, {
        programIds: [Number(req.params.programId)],
        query,
        adminId,
      });
      return {
        data: rows,
        current_page: query.page,
        last_page: Math.max(1, Math.ceil(total / query.per_page)),
        per_page: query.per_page,
        total,
      };
    },
  );

  app.get('/api/v1/user', async (req, reply) => {
    const adminId = await session(req.headers.authorization);
    if (adminId === null) return reply.code(401).send({ message: 'Unauthenticated.' });
    // The same one-statement read of the user, roles, programs and enterprises as the product.
    const row = await activeUserRow(db, adminId);
    if (!row) return reply.code(401).send({ message: 'Unauthenticated.' });
    const { mfa_secret: _secret, ...user } = row;
    return user;
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      await db.$client.end();
    },
  };
}
