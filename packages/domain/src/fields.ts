import { NOT_PROVIDED } from './display-text';

/** Text inputs trim surrounding whitespace on blur; password fields keep what was typed (01 §5). */
export function trimOnBlur(value: string, inputType = 'text'): string {
  return inputType.toLowerCase() === 'password' ? value : value.trim();
}

/** A read-only value, or 'Not Provided' when it is missing, blank or NaN. Zero is a value and shows. */
export function orNotProvided(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return NOT_PROVIDED;
  if (typeof value === 'number') return Number.isNaN(value) ? NOT_PROVIDED : String(value);
  return value.trim() === '' ? NOT_PROVIDED : value;
}
