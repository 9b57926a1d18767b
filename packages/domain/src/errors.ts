/** The server's validation errors: field name to its messages (DESIGN §4, 422 bodies). */
export type FieldErrors = Readonly<Record<string, readonly string[] | undefined>>;

/** Shown when patient creation fails without field errors (01 §5, §8). */
export const UNABLE_TO_CREATE_MESSAGE = 'Unable to create, try again later';
export const BULLET = '• ';

/**
 * The first message of each field, in the object's key order (JavaScript puts integer-like keys first,
 * then the rest in insertion order). Fields without a non-blank first message are skipped.
 */
export function firstErrorMessages(errors: FieldErrors | null | undefined): string[] {
  if (!errors) return [];
  const messages: string[] = [];
  for (const fieldMessages of Object.values(errors)) {
    const first: unknown = Array.isArray(fieldMessages) ? fieldMessages[0] : undefined;
    if (typeof first === 'string' && first.trim() !== '') messages.push(first);
  }
  return messages;
}

/**
 * The first messages as one bulleted list, one '• message' per line, or `fallback` when there are none
 * (patient creation, 01 §5). Render with `white-space: pre-line`.
 */
export function bulletedErrorList(
  errors: FieldErrors | null | undefined,
  fallback: string = UNABLE_TO_CREATE_MESSAGE,
): string {
  const messages = firstErrorMessages(errors);
  return messages.length === 0 ? fallback : messages.map((message) => `${BULLET}${message}`).join('\n');
}
