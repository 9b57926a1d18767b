import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client';

export type AuditEntry = {
  actorAdminId: number | null;
  actorRealm?: 'staff' | 'controller' | 'system';
  programId?: number | null;
  action: string;
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
