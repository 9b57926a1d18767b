import { errors, jwtVerify, SignJWT } from 'jose';

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

/** Signs and verifies the short-lived access tokens and the sign-in challenge tokens (HS256). */
export function createTokenService(secret: string, accessTtlSeconds: number) {
  const key = new TextEncoder().encode(secret);

  async function verify(token: string, audience: string) {
    try {
      const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience, algorithms: ['HS256'] });
      return payload;
    } catch (err) {
      if (err instanceof errors.JOSEError) return null;
      throw err;
    }
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
