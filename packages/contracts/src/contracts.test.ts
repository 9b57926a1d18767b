import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { newPasswordBody, PASSWORDS_DO_NOT_MATCH, registerBody, signInBody } from './auth';
import { line, MISSING_FIELD, NOT_A_CHOICE, text, withoutDefaults } from './common';
import * as contracts from './index';
import { createPatientBody } from './patient-record';
import { patientListQuery } from './patients';
import { routeUrl } from './route';
import { updateProfileBody } from './user';

describe('auth inputs', () => {
  it('lower-cases and trims the e-mail before sign-in', () => {
    expect(signInBody.parse({ email: '  Admin@CareDeck.Demo ', password: 'x' }).email).toBe(
      'admin@caredeck.demo',
    );
  });

  it('requires matching passwords with the product message on the confirmation field', () => {
    const r = newPasswordBody.safeParse({
      challenge_token: 't',
      password: 'Strong-Pass-1',
      password_confirmation: 'Strong-Pass-2',
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({
      path: ['password_confirmation'],
      message: PASSWORDS_DO_NOT_MATCH,
    });
  });

  it('refuses short or single-class passwords and accepts a strong one', () => {
    const base = { given_name: 'A', family_name: 'B', email: 'a@b.co' };
    for (const password of ['Short-1', 'alllowercaseletters']) {
      expect(registerBody.safeParse({ ...base, password, password_confirmation: password }).success).toBe(
        false,
      );
    }
    expect(
      registerBody.safeParse({
        ...base,
        password: 'Correct-Horse-9',
        password_confirmation: 'Correct-Horse-9',
      }).success,
    ).toBe(true);
  });
});

describe('patient list query', () => {
  it('defaults to page 1 of 10 sorted by name ascending caps the page size at 100 and refuses sizes below 1', () => {
    expect(patientListQuery.parse({})).toEqual({
      page: 1,
      per_page: 10,
      sort_by: 'name',
      sort_direction: 'ASC',
    });
    expect(patientListQuery.parse({ sort_direction: 'desc' }).sort_direction).toBe('DESC');
    expect(patientListQuery.parse({ per_page: '1000' }).per_page).toBe(100);
    expect(patientListQuery.safeParse({ per_page: '0' }).success).toBe(false);
  });
});

describe('profile', () => {
  it('accepts IANA zones only', () => {
    const base = { given_name: 'A', family_name: 'B' };
    expect(updateProfileBody.safeParse({ ...base, tz: 'America/Detroit' }).success).toBe(true);
    expect(updateProfileBody.safeParse({ ...base, tz: 'Eastern' }).success).toBe(false);
  });
});

describe('text inputs', () => {
  it('refuses control characters and lone surrogates, keeps tabs and line breaks in multi-line text', () => {
    for (const bad of ['\u0000', 'a\u0001', '\u001f', '\u007f', '\u0085', '\ud800', 'x\udc00y'])
      expect(line().safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    for (const good of ['Zoë Ñúñez', '李雷', '👩‍⚕️ ok', 'a-b_c'])
      expect(line().safeParse(good).success, good).toBe(true);
    expect(line().safeParse('a\tb').success).toBe(false);
    expect(text().safeParse('a\tb\r\nc').success).toBe(true);
    expect(text().safeParse('a\u0000b').success).toBe(false);
  });
});

describe('routeUrl', () => {
  it('fills parameters whose names end in digits, and one that is the start of another', () => {
    expect(routeUrl({ path: '/api/v1/users/:id/merge/:id2' }, { id: 7, id2: 9 })).toBe(
      '/api/v1/users/7/merge/9',
    );
    expect(routeUrl({ path: '/a/:id/:idx' }, { id: 1, idx: 'b c' }, { q: 'x', empty: '' })).toBe(
      '/a/1/b%20c?q=x',
    );
  });
});

describe('plain validation messages', () => {
  it('says a missing field is required, and lists a short choice but not 56 states', () => {
    const result = createPatientBody.safeParse({ state: 'ZZ', sex: 'x' });
    expect(result.success).toBe(false);
    const errors = Object.fromEntries(
      (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
    );
    expect(errors).toMatchObject({
      first_name: MISSING_FIELD,
      last_name: MISSING_FIELD,
      dob: MISSING_FIELD,
      sex: 'Choose one of: female, male, other, unknown.',
      state: NOT_A_CHOICE,
    });
  });
});

describe('change bodies (ADR 059)', () => {
  /** The object schema under refinements and transforms. */
  function objectOf(schema: unknown): z.ZodObject | null {
    let current = schema as z.ZodType | undefined;
    for (let depth = 0; current && depth < 10; depth++) {
      if (current instanceof z.ZodObject) return current;
      const def = (current as unknown as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
      current = (def?.in ?? def?.innerType ?? def?.schema) as z.ZodType | undefined;
    }
    return null;
  }
  function fillsDefault(field: unknown): boolean {
    let current = field as z.ZodType | undefined;
    for (let depth = 0; current && depth < 6; depth++) {
      if (current instanceof z.ZodDefault) return true;
      current = (current as unknown as { _zod?: { def?: { innerType?: z.ZodType } } })._zod?.def?.innerType;
    }
    return false;
  }
  // Actions whose bodies are not a record's fields: no corrections, no next pipeline.
  const ACTIONS = new Set([
    'PUT /api/v1/external_orders/:userId/regimens/:needByDate regimens',
    'PUT /api/v1/programs/:programId/pipelines/:pipeline_id/users/:userId/complete new_pipeline_id',
  ]);

  it('fill no default into a field the change leaves out (a rename kept resetting times and colours)', () => {
    const offenders: string[] = [];
    let checked = 0;
    for (const [name, group] of Object.entries(contracts)) {
      if (!name.endsWith('Contract') || typeof group !== 'object' || group === null) continue;
      for (const route of Object.values(
        group as Record<string, { method: string; path: string; body?: unknown }>,
      )) {
        if (route.method !== 'PUT' && route.method !== 'PATCH') continue;
        const body = objectOf(route.body);
        if (!body) continue;
        checked++;
        for (const [field, schema] of Object.entries(body.shape))
          if (fillsDefault(schema) && !ACTIONS.has(`${route.method} ${route.path} ${field}`))
            offenders.push(`${route.method} ${route.path} ${field}`);
      }
    }
    expect(checked).toBeGreaterThan(30);
    expect(offenders).toEqual([]);
  });

  it('withoutDefaults leaves a changed field as given and an absent one absent', () => {
    const shape = { time: z.array(z.string()).default([]), name: z.string() };
    const change = z.object(withoutDefaults(shape)).partial();
    expect(change.parse({ name: 'x' })).toEqual({ name: 'x' });
    expect(change.parse({ time: ['08:00'] })).toEqual({ time: ['08:00'] });
  });
});

describe('dates and whole numbers (issue 28 item 4)', () => {
  it('takes a calendar day only when it exists (one parser for every date input)', () => {
    for (const day of ['2026-02-28', '2024-02-29', '2000-02-29', '2026-12-31', '1900-01-01'])
      expect(contracts.isCalendarDay(day), day).toBe(true);
    for (const day of [
      '2026-02-30',
      '2026-02-29',
      '1900-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-04-31',
      '2026-1-1',
      '20260101',
      '',
    ])
      expect(contracts.isCalendarDay(day), day).toBe(false);
  });

  it('takes a date and time only when its day and time exist', () => {
    for (const at of [
      '2026-03-01T09:30:00Z',
      '2026-03-01T09:30:00.123+02:00',
      '2026-03-01 09:30',
      '2026-03-01',
    ])
      expect(contracts.isIsoInstant(at), at).toBe(true);
    for (const at of [
      '2026-02-30',
      '2026-02-30T10:00:00Z',
      '2026-03-01T24:00:00Z',
      '2026-03-01T09:60',
      'March 1, 2026',
      '2026-03-01T09:30+25:00',
    ])
      expect(contracts.isIsoInstant(at), at).toBe(false);
  });

  it('refuses an impossible day in a regimen and wherever a day is asked', () => {
    const regimen = contracts.medicationsContract.createRegimen.body;
    const issues = regimen.safeParse({ name: 'x', scheduled_at: '2026-02-30' }).error?.issues ?? [];
    expect(issues.some((i) => i.path[0] === 'scheduled_at')).toBe(true);
    expect(contracts.newNoteFields.safeParse({ body: 'x', follow_up_date: '2026-02-30' }).success).toBe(
      false,
    );
  });

  it('refuses a fractional goal where the goal is counted, and keeps a decimal target weight', () => {
    const goal = contracts.deviceChannelContract.goals.body;
    expect(goal.safeParse({ device_id: 1, type: 'steps', target: 1.5 }).error?.issues[0]?.path).toEqual([
      'target',
    ]);
    expect(goal.safeParse({ device_id: 1, type: 'steps', target: 8000 }).success).toBe(true);
    expect(goal.safeParse({ device_id: 1, type: 'weight', target: 72.5 }).success).toBe(true);
  });
});
