import { describe, expect, it } from 'vitest';
import { NOT_PROVIDED, TAG_INPUT_HINT } from './display-text';
import { orNotProvided, trimOnBlur } from './fields';

describe('trimOnBlur', () => {
  it('trims text fields', () => {
    expect(trimOnBlur('  Jane Doe \n')).toBe('Jane Doe');
    expect(trimOnBlur(' jane@example.com ', 'email')).toBe('jane@example.com');
  });

  it('keeps password fields exactly as typed', () => {
    expect(trimOnBlur('  secret  ', 'password')).toBe('  secret  ');
    expect(trimOnBlur(' secret ', 'PASSWORD')).toBe(' secret ');
  });
});

describe('orNotProvided', () => {
  it.each([null, undefined, '', '   ', Number.NaN])('shows Not Provided for %j', (value) => {
    expect(orNotProvided(value)).toBe(NOT_PROVIDED);
    expect(NOT_PROVIDED).toBe('Not Provided');
  });

  it('shows real values, zero included', () => {
    expect(orNotProvided('Pennsylvania')).toBe('Pennsylvania');
    expect(orNotProvided(0)).toBe('0');
    expect(orNotProvided(42.5)).toBe('42.5');
  });
});

describe('tag input', () => {
  it('hints how to add a tag', () => {
    expect(TAG_INPUT_HINT).toBe('Press enter to add tag');
  });
});
