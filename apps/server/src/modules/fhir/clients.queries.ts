import { sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';

export type FhirClientRow = {
  id: number;
  program_id: number;
  client_id: string;
  name: string;
  jwks: { keys: Record<string, unknown>[] };
  scopes: string[];
  created_at: Date;
  revoked_at: Date | null;
};

const COLUMNS = sql`id, program_id, client_id, name, jwks, scopes, created_at, revoked_at`;

export async function listClients(
  db: Queryable,
  programId: number,
  page: { page: number; per_page: number },
) {
  const res = await db.execute<FhirClientRow & { total: number }>(sql`
    SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM fhir_clients
    WHERE program_id = ${programId}
    ORDER BY id DESC
    LIMIT ${page.per_page} OFFSET ${(page.page - 1) * page.per_page}`);
  return res.rows;
}

export async function countClients(db: Queryable, programId: number): Promise<number> {
  const res = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM fhir_clients WHERE program_id = ${programId}`,
  );
  return res.rows[0]?.n ?? 0;
}

export async function insertClient(
  db: Queryable,
  c: {
    programId: number;
    clientId: string;
    name: string;
    jwks: unknown;
    scopes: string[];
    createdBy: number;
  },
): Promise<FhirClientRow> {
  const res = await db.execute<FhirClientRow>(sql`
    INSERT INTO fhir_clients (program_id, client_id, name, jwks, scopes, created_by)
    VALUES (${c.programId}, ${c.clientId}, ${c.name}, ${JSON.stringify(c.jwks)}::jsonb,
      ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(c.scopes)}::jsonb)), ${c.createdBy})
    RETURNING ${COLUMNS}`);
  return res.rows[0]!;
}

/** Revokes a live client of the program; false when there is none (unknown, another program's, or revoked). */
export async function revokeClient(db: Queryable, programId: number, id: number): Promise<boolean> {
  const res = await db.execute(sql`
    UPDATE fhir_clients SET revoked_at = now()
    WHERE id = ${id} AND program_id = ${programId} AND revoked_at IS NULL`);
  return (res.rowCount ?? 0) > 0;
}

/** A live client by its public client id (token requests). */
export async function liveClientByClientId(db: Queryable, clientId: string): Promise<FhirClientRow | null> {
  const res = await db.execute<FhirClientRow>(
    sql`SELECT ${COLUMNS} FROM fhir_clients WHERE client_id = ${clientId} AND revoked_at IS NULL`,
  );
  return res.rows[0] ?? null;
}

/**
 * Records an assertion's `jti` until it expires; false when the client used it already (a replay). Expired
 * entries of the client are cleared in the same statement.
 */
export async function useAssertion(
  db: Queryable,
  clientId: number,
  jti: string,
  expiresAt: Date,
): Promise<boolean> {
  const res = await db.execute<{ jti: string }>(sql`
    WITH cleared AS (DELETE FROM fhir_client_assertions WHERE client_id = ${clientId} AND expires_at < now())
    INSERT INTO fhir_client_assertions (client_id, jti, expires_at)
    VALUES (${clientId}, ${jti}, ${expiresAt.toISOString()})
    ON CONFLICT DO NOTHING
    RETURNING jti`);
  return res.rows.length > 0;
}
