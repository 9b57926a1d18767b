import { sql } from 'drizzle-orm';
import { verifySync } from 'otplib';
import type { Queryable } from '../db/client';

/** Codes of the neighbouring 30-second steps are accepted, for clock drift and typing time. */
const TOLERANCE_SECONDS = 30;

/**
 * Checks a TOTP code for a staff member and spends it: a code (its time step) is accepted once, so
 * one seen over a shoulder or replayed from a log cannot be used again (RFC 6238 §5.2).
 * Run inside a transaction: the admin row is locked between the check and the write.
 */
export async function spendTotpCode(
  tx: Queryable,
  adminId: number,
  secret: string | null,
  code: string,
): Promise<boolean> {
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
