import { isApiError } from './api-client';

/**
 * The server's own words for a refusal (403 and other 4xx with a message), or null for anything else (ADR 065).
 * Kept out of the API client, which every first screen loads: only the forms that show it import it.
 */
export function refusalMessage(error: unknown): string | null {
  return isApiError(error) && error.status >= 400 && error.status < 500
    ? (error.body?.message ?? null)
    : null;
}
