import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DISPLAY_ZONE,
  DISPLAY_ZONE_DETROIT,
  DISPLAY_ZONE_NEW_YORK,
  isValidTimeZone,
  resolveDisplayZone,
} from './time-zones';

describe('display zones', () => {
  it('names the two fixed zones and defaults to New York', () => {
    expect(DISPLAY_ZONE_NEW_YORK).toBe('America/New_York');
    expect(DISPLAY_ZONE_DETROIT).toBe('America/Detroit');
    expect(DEFAULT_DISPLAY_ZONE).toBe(DISPLAY_ZONE_NEW_YORK);
  });

  it('knows real IANA zones', () => {
    expect(isValidTimeZone('America/Detroit')).toBe(true);
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    // Answers are cached; asking again must give the same answer.
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
  });

  it("uses the user's zone when valid, New York otherwise", () => {
    expect(resolveDisplayZone('Asia/Tokyo')).toBe('Asia/Tokyo');
    expect(resolveDisplayZone('Not/A_Zone')).toBe(DEFAULT_DISPLAY_ZONE);
    expect(resolveDisplayZone(null)).toBe(DEFAULT_DISPLAY_ZONE);
    expect(resolveDisplayZone(undefined)).toBe(DEFAULT_DISPLAY_ZONE);
  });
});
