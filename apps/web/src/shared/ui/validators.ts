import { i18n } from '../i18n';

/** A field rule: the translated message when the value is not acceptable, else null. */
export type Rule<V> = (value: string, values: V) => string | null;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const SIX_DIGITS = /^[0-9]{6}$/;
const PHONE = /^\+?[0-9 ()-]{7,20}$/;

export const required: Rule<unknown> = (value) =>
  value.trim() === '' ? i18n.t('validation.required') : null;

export const email: Rule<unknown> = (value) =>
  value.trim() === '' || EMAIL.test(value.trim()) ? null : i18n.t('validation.email');

export const sixDigitCode: Rule<unknown> = (value) =>
  SIX_DIGITS.test(value.trim()) ? null : i18n.t('validation.code');

export const phone: Rule<unknown> = (value) =>
  value.trim() === '' || PHONE.test(value.trim()) ? null : i18n.t('validation.phone');

export function maxLength(max: number): Rule<unknown> {
  return (value) => (value.length > max ? i18n.t('validation.maxLength', { max }) : null);
}

/** Same value as another field of the form (password confirmation). */
export function sameAs<V>(field: keyof V): Rule<V> {
  return (value, values) => (value === values[field] ? null : i18n.t('auth.passwordsDoNotMatch'));
}

/** The first failing rule's message. */
export function firstFailure<V>(rules: readonly Rule<V>[], value: string, values: V): string | null {
  for (const rule of rules) {
    const message = rule(value, values);
    if (message) return message;
  }
  return null;
}
