import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenService, verifyHs256 } from './tokens';

const SECRET = 'a-test-secret-of-reasonable-length-0123456789';
const key = Buffer.from(SECRET);
const expected = { issuer: 'caredeck', audience: 'access:staff' };
const SID = '123e4567-e89b-42d3-a456-426614174000';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** A token built by hand, so each part can be made wrong on its own. */
function handMade(header: unknown, payload: unknown, secret = SECRET) {
  const body = `${b64(header)}.${b64(payload)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}
const now = () => Math.floor(Date.now() / 1000);
const good = () => ({ iss: 'caredeck', aud: 'access:staff', sub: '7', exp: now() + 60, iat: now() });

describe('access token verification (synchronous HS256)', () => {
  it('accepts what the service signs, and the claims come back', async () => {
    const tokens = createTokenService(SECRET, 900);
    const token = await tokens.signAccess({ sub: 42, sid: SID, realm: 'staff', scope: 'hipaa' });
    expect(await tokens.verifyAccess(token, 'staff')).toEqual({
      sub: 42,
      sid: SID,
      realm: 'staff',
      scope: 'hipaa',
    });
    // A staff token is not a controller token, and a challenge token is neither.
    expect(await tokens.verifyAccess(token, 'controller')).toBeNull();
    const challenge = await tokens.signChallenge({ sub: 42, purpose: 'mfa', pwv: 3 });
    expect(await tokens.verifyAccess(challenge, 'staff')).toBeNull();
    expect(await tokens.verifyChallenge(challenge, 'mfa')).toEqual({ sub: 42, purpose: 'mfa', pwv: 3 });
    expect(await tokens.verifyChallenge(challenge, 'newPassword')).toBeNull();
  });

  it('accepts a token jose signs with the same key and claims', async () => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('caredeck')
      .setAudience(['other', 'access:staff'])
      .setExpirationTime('1m')
      .sign(new TextEncoder().encode(SECRET));
    expect(verifyHs256(token, key, expected)).not.toBeNull();
  });

  it('refuses a changed payload, another key, another algorithm and a critical header', () => {
    const token = handMade({ alg: 'HS256' }, good());
    expect(verifyHs256(token, key, expected)).not.toBeNull();
    const [h, , s] = token.split('.');
    expect(verifyHs256(`${h}.${b64({ ...good(), sub: '8' })}.${s}`, key, expected)).toBeNull();
    expect(verifyHs256(handMade({ alg: 'HS256' }, good(), 'another-secret'), key, expected)).toBeNull();
    expect(verifyHs256(handMade({ alg: 'none' }, good()), key, expected)).toBeNull();
    expect(verifyHs256(`${b64({ alg: 'none' })}.${b64(good())}.`, key, expected)).toBeNull();
    expect(verifyHs256(handMade({ alg: 'HS512' }, good()), key, expected)).toBeNull();
    expect(verifyHs256(handMade({ alg: 'HS256', crit: ['exp'] }, good()), key, expected)).toBeNull();
    expect(verifyHs256(handMade({ alg: 'HS256', typ: 'at+jwt' }, good()), key, expected)).toBeNull();
  });

  it('refuses another issuer or audience, and expired, not yet valid or undated tokens', () => {
    const t = (payload: Record<string, unknown>) =>
      verifyHs256(handMade({ alg: 'HS256' }, payload), key, expected);
    expect(t({ ...good(), iss: 'someone' })).toBeNull();
    expect(t({ ...good(), aud: 'access:controller' })).toBeNull();
    expect(t({ ...good(), aud: ['access:controller'] })).toBeNull();
    expect(t({ ...good(), exp: now() - 1 })).toBeNull();
    expect(t({ ...good(), exp: String(now() + 60) })).toBeNull();
    const { exp: _exp, ...undated } = good();
    expect(t(undated)).toBeNull();
    expect(t({ ...good(), nbf: now() + 60 })).toBeNull();
    expect(t({ ...good(), nbf: now() - 60 })).not.toBeNull();
    expect(t({ ...good(), iat: 'yesterday' })).toBeNull();
  });

  it('refuses malformed tokens without throwing', () => {
    for (const bad of [
      '',
      'abc',
      'a.b',
      'a.b.c.d',
      '***.***.***',
      `${b64([1])}.${b64(good())}.x`,
      'x'.repeat(5000),
    ])
      expect(verifyHs256(bad, key, expected)).toBeNull();
    const body = `${Buffer.from('not json').toString('base64url')}.${b64(good())}`;
    expect(
      verifyHs256(`${body}.${createHmac('sha256', SECRET).update(body).digest('base64url')}`, key, expected),
    ).toBeNull();
  });
});
