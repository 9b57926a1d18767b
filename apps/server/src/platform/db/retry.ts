/** PostgreSQL's answers for a transaction stopped to let another one through: safe to run again. */
const CONFLICT_CODES = new Set(['40P01', '40001']);

function sqlState(err: unknown): string | undefined {
  // drizzle wraps the driver's error ("Failed query: …") with the driver's error as its cause.
  for (let e = err, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** Whether the error is a deadlock or serialization failure (the transaction was rolled back whole). */
export function isConflict(err: unknown): boolean {
  const code = sqlState(err);
  return code !== undefined && CONFLICT_CODES.has(code);
}

/**
 * Runs a whole transaction again when PostgreSQL stopped it for a deadlock or a serialization failure
 * (up to `attempts` times in all); any other error, or the last conflict, is thrown.
 */
export async function retryConflicts<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= attempts || !isConflict(err)) throw err;
    }
  }
}
