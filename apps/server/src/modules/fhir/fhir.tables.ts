import { bigint, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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
