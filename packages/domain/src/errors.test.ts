import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bulletedErrorList, type FieldErrors, firstErrorMessages, UNABLE_TO_CREATE_MESSAGE } from './errors';

const errors: FieldErrors = {
  email: ['The email has already been taken.', 'The email must be valid.'],
  first_name: ['The first name field is required.'],
  phone: [],
  dob: ['The date of birth must be a date before today.'],
};

describe('firstErrorMessages', () => {
  it('takes the first message of each field, in key order, skipping fields without messages', () => {
    expect(firstErrorMessages(errors)).toEqual([
      'The email has already been taken.',
      'The first name field is required.',
      'The date of birth must be a date before today.',
    ]);
  });

  it('is empty for no errors object', () => {
    expect(firstErrorMessages({})).toEqual([]);
    expect(firstErrorMessages(null)).toEqual([]);
    expect(firstErrorMessages(undefined)).toEqual([]);
  });

  it('skips blank or malformed entries a server might send', () => {
    const odd = { a: [''], b: undefined, c: 'not a list', d: ['ok'] } as unknown as FieldErrors;
    expect(firstErrorMessages(odd)).toEqual(['ok']);
  });

  it('gives one message per field that has a non-blank first message', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.array(fc.string())), (input) => {
        const expected = Object.values(input)
          .map((messages) => messages[0])
          .filter((first): first is string => first !== undefined && first.trim() !== '');
        expect(firstErrorMessages(input)).toEqual(expected);
      }),
    );
  });
});

describe('bulletedErrorList', () => {
  it('lists the first messages as bullets, one per line', () => {
    expect(bulletedErrorList(errors)).toBe(
      [
        '• The email has already been taken.',
        '• The first name field is required.',
        '• The date of birth must be a date before today.',
      ].join('\n'),
    );
  });

  it('falls back when there are no field errors', () => {
    expect(bulletedErrorList({})).toBe('Unable to create, try again later');
    expect(bulletedErrorList(undefined)).toBe(UNABLE_TO_CREATE_MESSAGE);
    expect(bulletedErrorList({ name: [] }, 'Unable to create Inhaler Regimen')).toBe(
      'Unable to create Inhaler Regimen',
    );
  });
});
