import { sql } from 'drizzle-orm';
import { verifySync } from 'otplib';
import type { Database, Queryable } from '../db/client';
import { isSealed, type SecretBox } from './secret-box';

/** Codes of the neighbouring 30-second steps are accepted, for clock drift and typing time. */
const TOLERANCE_SECONDS = 30;

/**
 * Checks a TOTP code for a staff member and spends it: a code (its time step) is accepted once, so
 * one seen over a shoulder or replayed from a log cannot be used again (RFC 6238 §5.2).
 * Run inside a transaction: the admin row is locked between the check and the write.
 */
export async function spendTotpCode(
  tx: Queryable,
  box: SecretBox,
  adminId: number,
  sealedSecret: string | null,
  code: string,
): Promise<boolean> {
  const secret = sealedSecret && box.open(sealedSecret, totpContext(adminId));
  if (!secret) return false;
  const res = await tx.execute<{ mfa_last_step: number | null }>(
    sql`SELECT mfa_last_step FROM admins WHERE id = ${adminId} FOR UPDATE`,
  );
  const last = res.rows[0]?.mfa_last_step ?? null;
  let step: number;
  try {
    const result = verifySync({
      secret,
      token: code,
      epochTolerance: TOLERANCE_SECONDS,
      ...(last === null ? {} : { afterTimeStep: last }),
    });
    if (!result.valid) return false;
    if (!('timeStep' in result)) return false;
    step = result.timeStep;
  } catch {
    return false;
  }
  await tx.execute(sql`UPDATE admins SET mfa_last_step = ${step} WHERE id = ${adminId}`);
  return true;
}

/** The additional data a staff member's TOTP seed is sealed with: it opens for that account only. */
export function totpContext(adminId: number): string {
  return `admins.mfa_secret:${adminId}`;
}

/**
 * Seals TOTP seeds stored in plain text before encryption at rest existed; run at start-up, after
 * the migrations. Idempotent: sealed values are left alone.
 */
export async function sealPlainTotpSecrets(db: Database, box: SecretBox): Promise<number> {
  const res = await db.execute<{ id: number; mfa_secret: string }>(
    sql`SELECT id, mfa_secret FROM admins WHERE mfa_secret IS NOT NULL AND mfa_secret NOT LIKE 'v1.%'`,
  );
  for (const row of res.rows) {
    if (isSealed(row.mfa_secret)) continue;
    const sealed = box.seal(row.mfa_secret, totpContext(row.id));
    await db.execute(
      sql`UPDATE admins SET mfa_secret = ${sealed} WHERE id = ${row.id} AND mfa_secret = ${row.mfa_secret}`,
    );
  }
  return res.rows.length;
}
