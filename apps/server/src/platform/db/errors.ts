/**
 * A PostgreSQL unique violation (SQLSTATE 23505): a name or key already taken, answered as a field error.
 * Drizzle wraps the driver's error (its `cause`); either form is recognised.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 3; depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
