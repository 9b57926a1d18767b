// Business constants of spec 01 §9 that the console uses.

export const TOAST_POSITION = 'bottom-right';
export const TOAST_DURATION_MS = 4_000;
export const ERROR_TOAST_DURATION_MS = 2_500;
export const PASSWORD_EXPIRED_TOAST_DURATION_MS = 10_000;
/** At most this many toasts at once, newest on top. */
export const MAX_TOASTS = 20;

export const DEFAULT_PAGE_SIZE = 10;
/** The API caps per_page here (DESIGN §4). */
export const MAX_PAGE_SIZE = 100;
/** The full patient list is cached when the total exceeds this. */
export const FULL_PATIENT_LIST_CACHE_THRESHOLD = 100;

export const CITY_FETCH_LIMIT = 250;
export const US_STATES_LIMIT = 100;
export const STARRED_PAGES_LIMIT = 10;

export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const PASSWORD_MAX_AGE_MONTHS = 3;

/** Where a dialog opens, as a share of the window: 5% from the top, 25% from the left. */
export const DIALOG_OFFSET_TOP_PERCENT = 5;
export const DIALOG_OFFSET_LEFT_PERCENT = 25;
