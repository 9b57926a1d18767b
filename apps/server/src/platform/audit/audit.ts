import type { AuditAction } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { executePrepared, type Queryable } from '../db/client';

export type AuditEntry = {
  actorAdminId: number | null;
  actorRealm?: 'staff' | 'controller' | 'system' | 'fhir_client';
  programId?: number | null;
  /** Declared in contracts (AUDIT_ACTIONS), so every action has a label in the console. */
  action: AuditAction;
  subjectType?: string;
  subjectId?: number | null;
  /** Never PHI: ids, counts, field names, not values. */
  details?: Record<string, unknown>;
  ip?: string | null;
};

/** Writes one audit row; call it inside the use case's transaction. */
export async function audit(db: Queryable, e: AuditEntry): Promise<void> {
  await db.execute(sql`
    INSERT INTO audit_events (actor_admin_id, actor_realm, program_id, action, subject_type, subject_id, details, ip)
    VALUES (${e.actorAdminId}, ${e.actorRealm ?? 'staff'}, ${e.programId ?? null}, ${e.action},
      ${e.subjectType ?? null}, ${e.subjectId ?? null}, ${e.details ? JSON.stringify(e.details) : null}::jsonb, ${e.ip ?? null})`);
}

/**
 * The audit row of a read of PHI, written without waiting for its WAL flush: the statement turns
 * `synchronous_commit` off for its own implicit transaction, so a view costs one round trip and no
 * synchronous commit, and can run alongside the read. Once PostgreSQL answers the row is committed; a
 * crash of the database itself can lose the last ~0.6 s of such rows (3 × wal_writer_delay), never a
 * mutation's row (those are written in their use case's transaction, synchronously).
 */
export async function auditView(db: Queryable, e: AuditEntry): Promise<void> {
  await executePrepared(
    db,
    sql`
    WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true))
    INSERT INTO audit_events (actor_admin_id, actor_realm, program_id, action, subject_type, subject_id, details, ip)
    SELECT ${e.actorAdminId}, ${e.actorRealm ?? 'staff'}, ${e.programId ?? null}, ${e.action},
      ${e.subjectType ?? null}, ${e.subjectId ?? null}, ${e.details ? JSON.stringify(e.details) : null}::jsonb, ${e.ip ?? null}
    FROM async_commit`,
  );
}
