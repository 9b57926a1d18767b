import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { groups } from '../groups/groups.tables';
import { admins } from '../identity/identity.tables';
import { programs } from '../tenancy/tenancy.tables';

/**
 * A SMART Backend Services client (issue 31 item 3; docs/fhir.md): a system of one program (an EHR, a data
 * warehouse) that signs its token requests with a private key whose public half is registered here (a JWKS).
 * Registered and revoked by the program's administrators; a revoked client's tokens stop working at once.
 */
export const fhirClients = pgTable(
  'fhir_clients',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    programId: bigint('program_id', { mode: 'number' })
      .notNull()
      .references(() => programs.id, { onDelete: 'cascade' }),
    /** The public client id the client puts in its assertions (`iss`, `sub`). */
    clientId: text('client_id').notNull(),
    name: text('name').notNull(),
    /** The client's public keys, `{ keys: [JWK] }` (RS384 or ES384); never a private member. */
    jwks: jsonb('jwks').notNull(),
    /** The scopes the client may be granted (`system/*.rs`, `system/Observation.rs` …). */
    scopes: text('scopes').array().notNull(),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('fhir_clients_client_id_unique').on(t.clientId),
    index('fhir_clients_program_idx').on(t.programId, t.id),
  ],
);

/** The `jti` of every assertion a client used, until it expires: an assertion is good once (RFC 7523 §3). */
export const fhirClientAssertions = pgTable(
  'fhir_client_assertions',
  {
    clientId: bigint('client_id', { mode: 'number' })
      .notNull()
      .references(() => fhirClients.id, { onDelete: 'cascade' }),
    jti: text('jti').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.jti] }),
    index('fhir_client_assertions_expiry_idx').on(t.expiresAt),
  ],
);

/**
 * A Bulk Data `$export` job (issue 31 item 2; ADR 079): asked for by one staff member or one client (its
 * owner, the only one who may see it), run in the background, its NDJSON files in storage under
 * `fhir-export/{id}/`. Cancelling deletes the row; housekeeping deletes it and its files once expired.
 */
export const fhirBulkExports = pgTable(
  'fhir_bulk_exports',
  {
    /** Random: the status and file URLs name it. */
    id: uuid('id').primaryKey().defaultRandom(),
    adminId: bigint('admin_id', { mode: 'number' }).references(() => admins.id, { onDelete: 'cascade' }),
    clientId: bigint('client_id', { mode: 'number' }).references(() => fhirClients.id, {
      onDelete: 'cascade',
    }),
    /** The client's program (a client reads its program only); null for a staff member's Patient export. */
    programId: bigint('program_id', { mode: 'number' }).references(() => programs.id, {
      onDelete: 'cascade',
    }),
    /** The cohort of a Group export (`Group/{id}/$export`). */
    groupId: bigint('group_id', { mode: 'number' }).references(() => groups.id, { onDelete: 'cascade' }),
    types: text('types').array().notNull(),
    since: timestamp('since', { withTimezone: true }),
    /** The kick-off URL, for the manifest's `request`. */
    request: text('request').notNull(),
    status: text('status').notNull().default('queued'),
    /** Files written: `[{ type, key, count }]`. */
    output: jsonb('output').notNull().default(sql`'[]'::jsonb`),
    /** Resources written so far (X-Progress). */
    written: bigint('written', { mode: 'number' }).notNull().default(0),
    /** Why it failed, in words without PHI. */
    error: text('error'),
    transactionTime: timestamp('transaction_time', { withTimezone: true }),
    /** Refreshed while it runs: a running job without a beat for minutes lost its process and runs again. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check('fhir_bulk_exports_status_check', sql`${t.status} IN ('queued', 'running', 'completed', 'failed')`),
    check('fhir_bulk_exports_owner_check', sql`num_nonnulls(${t.adminId}, ${t.clientId}) = 1`),
    index('fhir_bulk_exports_status_idx').on(t.status, t.createdAt),
    index('fhir_bulk_exports_expiry_idx').on(t.expiresAt),
    index('fhir_bulk_exports_admin_idx').on(t.adminId),
    index('fhir_bulk_exports_client_idx').on(t.clientId),
    // One export at a time per owner (queued or running): a second kick-off meanwhile answers 429 (ADR 079).
    uniqueIndex('fhir_bulk_exports_admin_active_unique')
      .on(t.adminId)
      .where(sql`${t.status} IN ('queued', 'running')`),
    uniqueIndex('fhir_bulk_exports_client_active_unique')
      .on(t.clientId)
      .where(sql`${t.status} IN ('queued', 'running')`),
  ],
);
