import { authContract, userContract } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../platform/db/client';
import type { App } from '../platform/http/types';
import { seedDemo } from '../seed/demo';

export const DEMO_PASSWORD = 'CareDeck-demo-2026';

/** The demo data set, as `npm start` seeds it: tests run against what users see. */
export async function seedDemoData(db: Database): Promise<void> {
  await seedDemo(db, DEMO_PASSWORD);
}

export function cookieOf(res: { headers: Record<string, unknown> }, name = 'cd_refresh'): string | undefined {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
  for (const c of list) {
    const m = new RegExp(`^${name}=([^;]*)`).exec(String(c));
    if (m) return m[1];
  }
  return undefined;
}

export async function post(
  app: App,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
  remoteAddress?: string,
) {
  return app.inject({ method: 'POST', url, payload: body as object, headers, remoteAddress });
}

/** Signs in, consents to HIPAA when asked, and returns a full access token plus the refresh cookie. */
export async function signIn(
  app: App,
  email: string,
  password = DEMO_PASSWORD,
): Promise<{ token: string; refresh: string }> {
  const res = await post(app, authContract.signIn.path, { email, password });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  if (body.status === 'signedIn') return { token: body.access_token, refresh: cookieOf(res)! };
  expect(body.status).toBe('hipaa');
  const consent = await app.inject({
    method: 'PUT',
    url: userContract.consentHipaa.path,
    headers: { authorization: `Bearer ${body.access_token}` },
  });
  expect(consent.statusCode, consent.body).toBe(200);
  return { token: consent.json().access_token, refresh: cookieOf(consent)! };
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

/**
 * The latest code e-mailed to an address (the outbox is the mailbox in tests). Codes are issued just
 * after the answer (off the request path), so this waits for the mail to appear, up to 5 s.
 */
export async function lastCodeSentTo(db: Database, email: string, after = 0): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    const res = await db.execute<{ id: number; body_text: string }>(
      sql`SELECT id, body_text FROM email_outbox WHERE to_address = ${email} AND id > ${after} ORDER BY id DESC LIMIT 1`,
    );
    const code = /code is (\d{6})/.exec(res.rows[0]?.body_text ?? '')?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no code sent to ${email}`);
}

/** The id of the newest mail so far, to wait for a newer one with lastCodeSentTo(db, email, after). */
export async function lastMailId(db: Database): Promise<number> {
  const res = await db.execute<{ id: number | null }>(sql`SELECT max(id) AS id FROM email_outbox`);
  return res.rows[0]?.id ?? 0;
}

export async function adminId(db: Database, email: string): Promise<number> {
  const res = await db.execute<{ id: number }>(sql`SELECT id FROM admins WHERE email = ${email}`);
  return res.rows[0]!.id;
}
