import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';

export type Realm = 'staff' | 'controller';
export type Scope = 'full' | 'hipaa';
/** `sid` is the session's public id (a random UUID), never its sequential row id. */
export type AccessClaims = { sub: number; sid: string; realm: Realm; scope: Scope };
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export type ChallengePurpose = 'newPassword' | 'mfa';
export type ChallengeClaims = { sub: number; purpose: ChallengePurpose; pwv: number };

const ISSUER = 'caredeck';
const CHALLENGE_TTL_SECONDS = 600;

export type TokenService = ReturnType<typeof createTokenService>;

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function jsonPart(part: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Verifies a compact HS256 JWT of ours, synchronously: the header names HS256 and nothing critical, the
 * signature is the HMAC-SHA256 of `header.payload` (compared in constant time), the issuer and audience
 * are ours, and `exp` (required), `nbf` and `iat` are numbers with `exp` in the future and `nbf` past.
 * Every authenticated request runs it: jose's WebCrypto verify imported the key and went through a
 * promise job per call, about 0.3 ms of the request path's CPU (bench/RESULTS.md); this is a few µs.
 * Signing stays with jose.
 */
export function verifyHs256(
  token: string,
  key: Buffer,
  expected: { issuer: string; audience: string },
  nowSeconds = Date.now() / 1000,
): Record<string, unknown> | null {
  if (token.length > 4096) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [h, p, s] = parts as [string, string, string];
  if (!BASE64URL.test(h) || !BASE64URL.test(p) || !BASE64URL.test(s)) return null;
  const header = jsonPart(h);
  if (header?.alg !== 'HS256' || header.crit !== undefined) return null;
  if (header.typ !== undefined && header.typ !== 'JWT') return null;
  const signature = Buffer.from(s, 'base64url');
  const expectedSignature = createHmac('sha256', key).update(`${h}.${p}`).digest();
  if (signature.length !== expectedSignature.length || !timingSafeEqual(signature, expectedSignature))
    return null;
  const payload = jsonPart(p);
  if (!payload) return null;
  if (payload.iss !== expected.issuer) return null;
  const aud = payload.aud;
  if (!(aud === expected.audience || (Array.isArray(aud) && aud.includes(expected.audience)))) return null;
  if (typeof payload.exp !== 'number' || !(payload.exp > nowSeconds)) return null;
  if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > nowSeconds)) return null;
  if (payload.iat !== undefined && typeof payload.iat !== 'number') return null;
  return payload;
}

/** Signs and verifies the short-lived access tokens and the sign-in challenge tokens (HS256). */
export function createTokenService(secret: string, accessTtlSeconds: number) {
  const key = new TextEncoder().encode(secret);
  const hmacKey = Buffer.from(key);

  async function verify(token: string, audience: string) {
    return verifyHs256(token, hmacKey, { issuer: ISSUER, audience });
  }

  return {
    accessTtlSeconds,
    signAccess(claims: AccessClaims): Promise<string> {
      return new SignJWT({ sid: claims.sid, realm: claims.realm, scope: claims.scope })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.sub))
        .setIssuer(ISSUER)
        .setAudience(`access:${claims.realm}`)
        .setIssuedAt()
        .setExpirationTime(`${accessTtlSeconds}s`)
        .sign(key);
    },
    async verifyAccess(token: string, realm: Realm): Promise<AccessClaims | null> {
      const p = await verify(token, `access:${realm}`);
      if (!p || typeof p.sid !== 'string' || !SESSION_ID.test(p.sid) || p.realm !== realm) return null;
      if (!/^[1-9][0-9]{0,15}$/.test(String(p.sub))) return null;
      const scope = p.scope === 'hipaa' ? 'hipaa' : p.scope === 'full' ? 'full' : null;
      if (!scope) return null;
      return { sub: Number(p.sub), sid: p.sid, realm, scope };
    },
    /** A SMART backend client's access token to /fhir (ADR 074): the client's row id and the scopes granted. */
    signFhirClient(claims: { sub: number; scope: string }, ttlSeconds: number): Promise<string> {
      return new SignJWT({ scope: claims.scope })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.sub))
        .setIssuer(ISSUER)
        .setAudience('access:fhir_client')
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key);
    },
    async verifyFhirClient(token: string): Promise<{ sub: number; scopes: string[] } | null> {
      const p = await verify(token, 'access:fhir_client');
      if (!p || typeof p.scope !== 'string' || !/^[1-9][0-9]{0,15}$/.test(String(p.sub))) return null;
      return { sub: Number(p.sub), scopes: p.scope.split(' ').filter(Boolean) };
    },
    signChallenge(claims: ChallengeClaims): Promise<string> {
      return new SignJWT({ purpose: claims.purpose, pwv: claims.pwv })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.sub))
        .setIssuer(ISSUER)
        .setAudience('challenge')
        .setIssuedAt()
        .setExpirationTime(`${CHALLENGE_TTL_SECONDS}s`)
        .sign(key);
    },
    async verifyChallenge(token: string, purpose: ChallengePurpose): Promise<ChallengeClaims | null> {
      const p = await verify(token, 'challenge');
      if (!p || p.purpose !== purpose || typeof p.pwv !== 'number') return null;
      return { sub: Number(p.sub), purpose, pwv: p.pwv };
    },
  };
}
