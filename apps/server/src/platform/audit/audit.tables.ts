import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Append-only audit trail: who did what to which object, in the same transaction as the change. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorAdminId: bigint('actor_admin_id', { mode: 'number' }),
    actorRealm: text('actor_realm').notNull().default('staff'),
    programId: bigint('program_id', { mode: 'number' }),
    action: text('action').notNull(),
    subjectType: text('subject_type'),
    subjectId: bigint('subject_id', { mode: 'number' }),
    details: jsonb('details'),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_events_program_ts_idx').on(t.programId, t.createdAt),
    index('audit_events_actor_ts_idx').on(t.actorAdminId, t.createdAt),
    // A patient's audit history (GET {P}/users/{id}/audit_history).
    index('audit_events_subject_idx').on(t.subjectType, t.subjectId, t.id),
  ],
);
