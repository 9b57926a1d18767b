/** The two fixed display zones of spec 01 §9; any other valid IANA zone (the user's own) is accepted too. */
export const DISPLAY_ZONE_NEW_YORK = 'America/New_York';
export const DISPLAY_ZONE_DETROIT = 'America/Detroit';
/** Used when no zone is given or the given zone is not a valid IANA name (ADR 002). */
export const DEFAULT_DISPLAY_ZONE = DISPLAY_ZONE_NEW_YORK;

const zoneValidity = new Map<string, boolean>();

/** True when the runtime's Intl knows the IANA zone name (e.g. 'Europe/Berlin', 'UTC'). */
export function isValidTimeZone(zone: string): boolean {
  const known = zoneValidity.get(zone);
  if (known !== undefined) return known;
  let valid = zone.trim() !== '';
  if (valid) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
    } catch {
      valid = false;
    }
  }
  zoneValidity.set(zone, valid);
  return valid;
}

/**
 * The zone a display helper should use: the given one when valid, else the default. A user's stored zone
 * can be stale or mistyped; showing New York time beats failing to render a page.
 */
export function resolveDisplayZone(zone?: string | null): string {
  return zone && isValidTimeZone(zone) ? zone : DEFAULT_DISPLAY_ZONE;
}
