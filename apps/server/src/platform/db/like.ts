/** A text matched literally inside a LIKE pattern: `\`, `%` and `_` escaped (PostgreSQL's default escape is `\`). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The ILIKE pattern of "contains this text". */
export const containsPattern = (value: string): string => `%${escapeLike(value)}%`;

/** The ILIKE pattern of "starts with this text". */
export const prefixPattern = (value: string): string => `${escapeLike(value)}%`;
