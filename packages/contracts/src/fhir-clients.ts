import { z } from 'zod';
import { idParam, line, paged, pageQuery } from './common';
import { defineRoute } from './route';

/**
 * SMART Backend Services clients of a program (issue 31 item 3; docs/fhir.md, ADR 074): systems that read the
 * program's FHIR resources with tokens they obtain by signing an assertion with their private key. A program's
 * administrators register them with the public keys (a JWKS) and revoke them.
 */
export const FHIR_CLIENT_MESSAGES = {
  notFound: 'FHIR client not found',
  noKeys: 'Give at least one public key.',
  badKey: 'This is not a usable public key: RSA of at least 2048 bits (RS384) or EC P-384 (ES384).',
  duplicateKid: 'Each key needs its own kid.',
  badScope: 'Use system/*.rs or system/{Type}.rs (read and search), e.g. system/Observation.rs.',
} as const;

/** FHIR resource types a client may be granted, with `*` for all of them. */
export const FHIR_SCOPE_TYPES = [
  '*',
  'Patient',
  'Observation',
  'Device',
  'Organization',
  'Practitioner',
  'MedicationRequest',
  'MedicationAdministration',
] as const;

/** `system/{type}.rs` (SMART v2) or `system/{type}.read` (v1): read and search. */
export const FHIR_SCOPE = new RegExp(
  `^system/(${FHIR_SCOPE_TYPES.map((t) => t.replace('*', '\\*')).join('|')})\\.(rs|read)$`,
);

const base64url = line()
  .max(1400)
  .regex(/^[A-Za-z0-9_-]+$/, 'Use base64url.');

/** A public JWK: RSA (n, e) or EC (crv, x, y). Private members (d, p, q …) are refused as unknown fields. */
export const publicJwk = z.object({
  kty: z.enum(['RSA', 'EC']),
  kid: line().trim().min(1).max(200),
  alg: z.enum(['RS384', 'ES384']).optional(),
  use: z.literal('sig').optional(),
  key_ops: z.array(z.literal('verify')).max(1).optional(),
  n: base64url.optional(),
  e: base64url.optional(),
  crv: z.literal('P-384').optional(),
  x: base64url.optional(),
  y: base64url.optional(),
});

export const newFhirClientFields = z.object({
  name: line().trim().min(1).max(120),
  jwks: z.object({ keys: z.array(publicJwk).min(1, FHIR_CLIENT_MESSAGES.noKeys).max(10) }),
  scopes: z
    .array(line().regex(FHIR_SCOPE, FHIR_CLIENT_MESSAGES.badScope))
    .min(1)
    .max(FHIR_SCOPE_TYPES.length * 2)
    .default(['system/*.rs']),
});
export type NewFhirClientFields = z.infer<typeof newFhirClientFields>;

export const fhirClientView = z.object({
  id: z.number().int(),
  client_id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  key_ids: z.array(z.string()),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type FhirClientView = z.infer<typeof fhirClientView>;

const tags = ['FHIR clients'];

export const fhirClientsContract = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/fhir-clients',
    summary: 'The SMART backend clients of the program, newest first (revoked ones included), paged',
    tags,
    params: z.object({ programId: idParam }),
    query: pageQuery,
    responses: { 200: paged(fhirClientView) },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/programs/:programId/fhir-clients',
    summary: 'Registers a SMART backend client {name, jwks: {keys}, scopes?}: answers its client_id (201)',
    tags,
    params: z.object({ programId: idParam }),
    body: newFhirClientFields,
    responses: { 201: fhirClientView },
  }),
  revoke: defineRoute({
    method: 'DELETE',
    path: '/api/v1/programs/:programId/fhir-clients/:clientId',
    summary: 'Revokes a client: its tokens stop working at once (204)',
    tags,
    params: z.object({ programId: idParam, clientId: idParam }),
    responses: { 204: null },
  }),
};
