import { createPublicKey, randomBytes } from 'node:crypto';
import {
  type FhirClientView,
  FHIR_CLIENT_MESSAGES as M,
  type NewFhirClientFields,
  pageOf,
} from '@caredeck/contracts';
import type { StaffActor } from '../../platform/access/actor';
import { audit } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { countClients, type FhirClientRow, insertClient, listClients, revokeClient } from './clients.queries';

export function clientView(r: FhirClientRow): FhirClientView {
  return {
    id: r.id,
    client_id: r.client_id,
    name: r.name,
    scopes: r.scopes,
    key_ids: r.jwks.keys.map((k) => String(k.kid)),
    created_at: new Date(r.created_at).toISOString(),
    revoked_at: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
  };
}

/** Whether a JWK is a public key a client may sign with: RSA ≥ 2048 bits for RS384, EC P-384 for ES384. */
function usableKey(jwk: NewFhirClientFields['jwks']['keys'][number]): boolean {
  if (
    jwk.kty === 'RSA' &&
    (!jwk.n || !jwk.e || jwk.crv || jwk.x || jwk.y || (jwk.alg && jwk.alg !== 'RS384'))
  )
    return false;
  if (
    jwk.kty === 'EC' &&
    (!jwk.crv || !jwk.x || !jwk.y || jwk.n || jwk.e || (jwk.alg && jwk.alg !== 'ES384'))
  )
    return false;
  try {
    const key = createPublicKey({ key: { ...jwk }, format: 'jwk' });
    const details = key.asymmetricKeyDetails;
    if (key.asymmetricKeyType === 'rsa') return (details?.modulusLength ?? 0) >= 2048;
    return key.asymmetricKeyType === 'ec' && details?.namedCurve === 'secp384r1';
  } catch {
    return false;
  }
}

/** Registration of SMART Backend Services clients by a program's administrators (ADR 074). */
export function createFhirClientsService(deps: { db: Database }) {
  const { db } = deps;
  return {
    async list(programId: number, page: { page: number; per_page: number }) {
      const rows = await listClients(db, programId, page);
      const total = rows[0]?.total ?? (await countClients(db, programId));
      return pageOf(rows.map(clientView), page, total);
    },

    async create(actor: StaffActor, programId: number, fields: NewFhirClientFields): Promise<FhirClientView> {
      const errors: Record<string, string[]> = {};
      const kids = new Set<string>();
      fields.jwks.keys.forEach((key, i) => {
        if (!usableKey(key)) errors[`jwks.keys.${i}`] = [M.badKey];
        else if (kids.has(key.kid)) errors[`jwks.keys.${i}.kid`] = [M.duplicateKid];
        kids.add(key.kid);
      });
      if (Object.keys(errors).length > 0) throw AppError.validation(errors);
      const clientId = `cdc_${randomBytes(18).toString('base64url')}`;
      return db.transaction(async (tx) => {
        const row = await insertClient(tx, {
          programId,
          clientId,
          name: fields.name,
          jwks: { keys: fields.jwks.keys },
          scopes: [...new Set(fields.scopes)],
          createdBy: actor.adminId,
        });
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'fhir_client.create',
          subjectType: 'fhir_client',
          subjectId: row.id,
          details: { scopes: row.scopes, keys: fields.jwks.keys.length },
          ip: actor.ip,
        });
        return clientView(row);
      });
    },

    async revoke(actor: StaffActor, programId: number, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        if (!(await revokeClient(tx, programId, id))) throw AppError.notFound(M.notFound);
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'fhir_client.revoke',
          subjectType: 'fhir_client',
          subjectId: id,
          ip: actor.ip,
        });
      });
    },
  };
}

export type FhirClientsService = ReturnType<typeof createFhirClientsService>;
