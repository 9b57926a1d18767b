import { readFileSync } from 'node:fs';

/**
 * Passwords people pick first (ADR 014): the 10,000 most common of the OWASP SecLists "10 million
 * passwords" list, plus every entry of its top 200,000 with 10 or more characters, lower-cased.
 * Loaded once, on the server only: the console shows the server's 422 field message.
 */
let list: Set<string> | null = null;
function commonPasswords(): Set<string> {
  list ??= new Set(
    readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter(Boolean),
  );
  return list;
}

// What people add to a common word to pass a composition rule: digits and symbols around it.
const DECORATION = /^[^a-z]+|[^a-z]+$/g;

/**
 * True for a listed password (any case), and for a listed word decorated with leading or trailing
 * digits and symbols (`Password1!`, `Qwerty12345`, `!!Sunshine2026`).
 */
export function isCommonPassword(password: string): boolean {
  const words = commonPasswords();
  const lower = password.toLowerCase();
  if (words.has(lower)) return true;
  const core = lower.replace(DECORATION, '');
  return core.length >= 4 && core !== lower && words.has(core);
}

export const COMMON_PASSWORD_MESSAGE =
  'This password is one of the most common ones and easy to guess. Choose another.';
