import { describe, expect, it } from 'vitest';
import * as domain from './index';

describe('constants of spec 01 §9', () => {
  it('pins the toast settings', () => {
    expect(domain.TOAST_POSITION).toBe('bottom-right');
    expect(domain.TOAST_DURATION_MS).toBe(4000);
    expect(domain.ERROR_TOAST_DURATION_MS).toBe(2500);
    expect(domain.PASSWORD_EXPIRED_TOAST_DURATION_MS).toBe(10000);
    expect(domain.MAX_TOASTS).toBe(20);
  });

  it('pins the limits', () => {
    expect(domain.DEFAULT_PAGE_SIZE).toBe(10);
    expect(domain.MAX_PAGE_SIZE).toBe(100);
    expect(domain.FULL_PATIENT_LIST_CACHE_THRESHOLD).toBe(100);
    expect(domain.STARRED_PAGES_LIMIT).toBe(10);
    expect(domain.CITY_FETCH_LIMIT).toBe(250);
    expect(domain.US_STATES_LIMIT).toBe(100);
    expect(domain.CHUNK_LOAD_TIMEOUT_MS).toBe(120000);
    expect(domain.SEARCH_DEBOUNCE_MS).toBe(300);
    expect(domain.PASSWORD_MAX_AGE_MONTHS).toBe(3);
    expect(domain.DEFAULT_PROGRAM_ID).toBe(1);
    expect(domain.DIALOG_OFFSET_TOP_PERCENT).toBe(5);
    expect(domain.DIALOG_OFFSET_LEFT_PERCENT).toBe(25);
  });

  it('exports the helpers from the package entry', () => {
    expect(Object.keys(domain)).toEqual(
      expect.arrayContaining([
        'formatDate',
        'displayDate',
        'formatCurrency',
        'formatCents',
        'formatPercent',
        'formatFileSize',
        'formatCompactCount',
        'excerpt',
        'truncate',
        'messageDateKey',
        'groupByMessageDate',
        'exportFileStamp',
        'exportFileName',
        'parseDateInput',
        'shouldEmitSearch',
        'trimOnBlur',
        'orNotProvided',
        'stepErrors',
        'firstErrorMessages',
        'bulletedErrorList',
        'chooseActiveProgram',
      ]),
    );
  });
});
