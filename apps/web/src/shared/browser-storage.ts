/** The browser-held data of 01 §3 under the names the product has always used. */
export const STORAGE_KEYS = {
  userInfo: 'userInfo',
  medRecAccess: 'MedRecAccess',
  activeProgramId: 'AppActiveProgramId',
  activeProgram: 'AppActiveProgram',
  activeEnterprise: 'AppActiveEnterprise',
  enterpriseState: 'AppEnterpriseState',
  lastActiveProgramId: 'AppLastActiveProgramId',
  lastActiveEnterprise: 'AppLastActiveEnterprise',
  lastEnterpriseState: 'AppLastEnterpriseState',
  lastUserId: 'AppLastUserId',
  /**
   * Id returned by PUT /user/login_log, needed for the logout log. The session (its refresh cookie) is shared by
   * every tab of the browser, so its login log is too: signing out in any tab closes it.
   */
  loginLogId: 'caredeck.loginLogId',
} as const;

/** Cleared at sign-out (01 §4). The "last …" keys stay so the same user gets their context back. */
export const SIGN_OUT_CLEARED_KEYS = [
  STORAGE_KEYS.userInfo,
  STORAGE_KEYS.medRecAccess,
  STORAGE_KEYS.activeProgramId,
  STORAGE_KEYS.activeProgram,
  STORAGE_KEYS.activeEnterprise,
  STORAGE_KEYS.enterpriseState,
  STORAGE_KEYS.loginLogId,
] as const;

/** Per-tab session data (never the access token, which lives in memory only). */
export const SESSION_STORAGE_KEYS = {
  /** Set when sign-out failed: the refresh cookie may still be valid, so do not silently sign back in. */
  signedOut: 'caredeck.signedOut',
  controllerToken: 'caredeck.controllerToken',
} as const;

export function readItem(key: string, storage: Storage = localStorage): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

export function writeItem(key: string, value: string | null, storage: Storage = localStorage): void {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
  } catch {
    // Storage full or disabled: the console works without it, only the restore-on-sign-in is lost.
  }
}

export function readNumber(key: string): number | null {
  const value = readItem(key);
  if (value === null || value.trim() === '') return null;
  const number = Number(value);
  return Number.isInteger(number) ? number : null;
}

export function readJson(key: string): unknown {
  const value = readItem(key);
  if (value === null) return null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  writeItem(key, value === null || value === undefined ? null : JSON.stringify(value));
}

/** Clears the session's browser-held data; a failed sign-out keeps MedRecAccess (01 §4). */
export function clearSignedOutData({ keepMedRecAccess }: { keepMedRecAccess: boolean }): void {
  for (const key of SIGN_OUT_CLEARED_KEYS) {
    if (keepMedRecAccess && key === STORAGE_KEYS.medRecAccess) continue;
    writeItem(key, null);
  }
}
