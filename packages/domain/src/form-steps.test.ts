import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldErrors } from './errors';
import { type FormSteps, isStepValid, stepErrors, stepFields } from './form-steps';

const patientSteps: FormSteps<'first_name' | 'last_name' | 'dob' | 'phones' | 'address' | 'program_id'> = [
  ['first_name', 'last_name', 'dob'],
  ['phones', 'address'],
  ['program_id'],
];

const serverErrors: FieldErrors = {
  last_name: ['The last name field is required.'],
  'phones.0.number': ['The phone number is invalid.'],
  'address.city': ['The city field is required.'],
  phones_extra: ['Not a field of step 2.'],
  program_id: [],
};

describe('stepFields', () => {
  it('counts steps from 1', () => {
    expect(stepFields(1, patientSteps)).toEqual(['first_name', 'last_name', 'dob']);
    expect(stepFields(3, patientSteps)).toEqual(['program_id']);
  });

  it.each([0, 4, 1.5, -1, Number.NaN])('refuses step %d', (step) => {
    expect(() => stepFields(step, patientSteps)).toThrow(RangeError);
  });
});

describe('stepErrors', () => {
  it('keeps only the errors of the current step', () => {
    expect(stepErrors(1, patientSteps, serverErrors)).toEqual({
      last_name: ['The last name field is required.'],
    });
  });

  it('counts nested keys towards their root field, but not fields that merely share a prefix', () => {
    expect(stepErrors(2, patientSteps, serverErrors)).toEqual({
      'phones.0.number': ['The phone number is invalid.'],
      'address.city': ['The city field is required.'],
    });
    expect(stepErrors(2, patientSteps, { 'phones[1]': ['Bad phone.'] })).toEqual({
      'phones[1]': ['Bad phone.'],
    });
  });

  it('leaves out fields with no messages', () => {
    expect(stepErrors(3, patientSteps, serverErrors)).toEqual({});
  });
});

describe('isStepValid', () => {
  it('judges a step only by its own fields', () => {
    expect(isStepValid(1, patientSteps, serverErrors)).toBe(false);
    expect(isStepValid(3, patientSteps, serverErrors)).toBe(true);
    expect(isStepValid(1, patientSteps, { program_id: ['Required.'] })).toBe(true);
  });
});

describe('step properties', () => {
  it('returns a subset of the errors whose keys belong to the step', () => {
    const field = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    const key = fc.oneof(
      field,
      fc.tuple(field, fc.nat(3)).map(([name, index]) => `${name}.${index}`),
    );
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(field, { minLength: 1 }), { minLength: 1, maxLength: 4 }),
        fc.dictionary(key, fc.array(fc.string(), { maxLength: 2 })),
        fc.nat(),
        (steps, errors, pick) => {
          const step = (pick % steps.length) + 1;
          const fields: readonly string[] = stepFields(step, steps);
          const result = stepErrors(step, steps, errors);
          for (const [errorKey, messages] of Object.entries(result)) {
            expect(errors[errorKey]).toEqual(messages);
            expect(messages.length).toBeGreaterThan(0);
            expect(fields).toContain(errorKey.split('.')[0]);
          }
          for (const [errorKey, messages] of Object.entries(errors)) {
            const root = errorKey.split('.')[0] ?? '';
            if (fields.includes(root) && messages.length > 0) expect(result[errorKey]).toEqual(messages);
          }
        },
      ),
    );
  });
});
