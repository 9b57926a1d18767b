export type {
  AdherenceDay,
  AdherenceInput,
  AdherenceResult,
  AdherenceTotals,
  ClassifiedDose,
  DoseEvent,
  DoseEventKind,
  DoseState,
  ExpectedDose,
  ScheduleRegimen,
  ScheduleRepeat,
} from './adherence';
export {
  classifyAdherence,
  DEFAULT_ON_TIME_MINUTES,
  DOSE_STATES,
  eventLookbehind,
  expandSchedule,
  stateAtClose,
} from './adherence';
export type { RollupDay, RollupPendingDose } from './adherence-rollup';
export { emptyDay, rollupDays } from './adherence-rollup';
export type {
  AlertSettings,
  Comparison,
  Reading,
  SettingsLevel,
  VitalAlertType,
  VitalVerdict,
} from './alerts';
export {
  compareValue,
  DEFAULT_ALERT_SETTINGS,
  effectiveSettings,
  evaluateVitals,
  isSnoozed,
  offlineAfterMs,
  VITAL_ALERT_READINGS,
  VITAL_ALERT_TYPES,
  verdictSummary,
} from './alerts';
export type {
  BillingFamily,
  BillingReading,
  BillingYearRules,
  CodeRule,
  DeviceOutcome,
  DevicePeriod,
  DeviceTrack,
  FamilyMonth,
  ReadingOrigin,
  TimeOutcome,
  TimeTrack,
} from './billing-rules';
export {
  BILLING_RULES,
  daysLeftInPeriod,
  deviceDays,
  deviceOutcome,
  minutesSeconds,
  PERIOD_DAYS,
  periodAt,
  periodOf,
  rpmOrRtm,
  rulesFor,
  setupCode,
  timeCodes,
} from './billing-rules';
export { groupBy } from './collections';
export {
  CHUNK_LOAD_TIMEOUT_MS,
  CITY_FETCH_LIMIT,
  DEFAULT_PAGE_SIZE,
  DIALOG_OFFSET_LEFT_PERCENT,
  DIALOG_OFFSET_TOP_PERCENT,
  ERROR_TOAST_DURATION_MS,
  FULL_PATIENT_LIST_CACHE_THRESHOLD,
  MAX_PAGE_SIZE,
  MAX_TOASTS,
  PASSWORD_EXPIRED_TOAST_DURATION_MS,
  PASSWORD_MAX_AGE_MONTHS,
  STARRED_PAGES_LIMIT,
  TOAST_DURATION_MS,
  TOAST_POSITION,
  US_STATES_LIMIT,
} from './constants';
export type { DisplayDatePattern } from './date-format';
export {
  DISPLAY_DATE_PATTERNS,
  displayDate,
  formatDate,
  ISO_STYLE_DATE_TIME_PATTERN,
  MONTH_DAY_PATTERN,
  US_DATE_PATTERN,
  US_DATE_TIME_PATTERN,
  US_DATE_TIME_SECONDS_ZONE_PATTERN,
  US_SHORT_YEAR_DATE_PATTERN,
} from './date-format';
export type { DateInputError, DateInputOptions, DateInputResult } from './date-input';
export {
  DATE_INPUT_FORMATS,
  expandTwoDigitYear,
  parseDateInput,
  TWO_DIGIT_YEAR_YEARS_BACK,
} from './date-input';
export { reorderUsDate } from './date-order';
export {
  ELLIPSIS,
  INVALID_DATE,
  NOT_AVAILABLE,
  NOT_PROVIDED,
  TAG_INPUT_HINT,
} from './display-text';
export type { FieldErrors } from './errors';
export { BULLET, bulletedErrorList, firstErrorMessages, UNABLE_TO_CREATE_MESSAGE } from './errors';
export { EXPORT_FILE_SUFFIX, exportFileName, exportFileStamp } from './export-file';
export { orNotProvided, trimOnBlur } from './fields';
export type { FormSteps } from './form-steps';
export { isStepValid, stepErrors, stepFields } from './form-steps';
export type { DateInput } from './instant';
export type { DateLanguage } from './language-dates';
export {
  DATE_LANGUAGES,
  formatLanguageDate,
  LANGUAGE_DATE_FORMATS,
  languageDateFormat,
  parseLanguageDate,
} from './language-dates';
export type { MessageDateGroup } from './message-dates';
export { groupByMessageDate, messageDateKey } from './message-dates';
export {
  FILE_SIZE_UNITS,
  formatCents,
  formatCompactCount,
  formatCurrency,
  formatFileSize,
  formatPercent,
} from './numbers';
export type { ProgramChoice } from './programs';
export { chooseActiveProgram, DEFAULT_PROGRAM_ID } from './programs';
export { isoWeekday, nextReminder, type ReminderRule } from './reminders';
export {
  normalizeSearchText,
  SEARCH_DEBOUNCE_MS,
  SEARCH_MIN_LENGTH,
  searchValueToEmit,
  shouldEmitSearch,
} from './search';
export type {
  Fired,
  RawAnswer,
  ScoredAnswer,
  ScoredQuestion,
  ScoringMessages,
  TriggerRule,
} from './surveys';
export { firedTriggers, maxScore, scoreAnswers } from './surveys';
export { EXCERPT_DEFAULT_LENGTH, excerpt, TRUNCATE_DEFAULT_LENGTH, truncate } from './text';
export {
  DEFAULT_DISPLAY_ZONE,
  DISPLAY_ZONE_DETROIT,
  DISPLAY_ZONE_NEW_YORK,
  isValidTimeZone,
  resolveDisplayZone,
} from './time-zones';
export type { LocalDate, WallClock } from './zoned-time';
export { isoDate, localDateOf, wallClock, zonedInstant, zoneOffset } from './zoned-time';
