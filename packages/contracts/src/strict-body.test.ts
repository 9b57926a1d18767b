import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NO_BODY, strictBody } from './strict-body';

const keysOf = (r: z.ZodSafeParseResult<unknown>) =>
  r.success
    ? []
    : r.error.issues
        .filter((i) => i.code === 'unrecognized_keys')
        .map((i) => [i.path.join('.'), (i as { keys: string[] }).keys.join(',')]);

describe('strictBody (ADR 070)', () => {
  it('refuses unknown fields at any depth, through optional, arrays, unions, defaults and pipes', () => {
    const item = z.object({ id: z.number() });
    const schema = z
      .object({
        a: z.string(),
        nested: z.object({ b: z.number() }).optional(),
        list: z.array(item).default([]),
        either: z
          .discriminatedUnion('kind', [
            z.object({ kind: z.literal('x'), x: z.number() }),
            z.object({ kind: z.literal('y') }),
          ])
          .optional(),
        free: z.record(z.string(), z.unknown()).optional(),
        loose: z.looseObject({ c: z.number() }).optional(),
      })
      .refine((v) => v.a !== 'bad', { message: 'bad', path: ['a'] })
      .transform((v) => ({ ...v, seen: true }));
    const strict = strictBody(schema);
    expect(strict.safeParse({ a: 'ok' }).success).toBe(true);
    expect(strict.parse({ a: 'ok' })).toMatchObject({ seen: true, list: [] });
    expect(keysOf(strict.safeParse({ a: 'ok', zz: 1 }))).toEqual([['', 'zz']]);
    expect(keysOf(strict.safeParse({ a: 'ok', nested: { b: 1, zz: 1 } }))).toEqual([['nested', 'zz']]);
    expect(keysOf(strict.safeParse({ a: 'ok', list: [{ id: 1 }, { id: 2, zz: 1 }] }))).toEqual([
      ['list.1', 'zz'],
    ]);
    expect(strict.safeParse({ a: 'ok', either: { kind: 'x', x: 1, zz: 1 } }).success).toBe(false);
    expect(strict.safeParse({ a: 'ok', either: { kind: 'y' } }).success).toBe(true);
    // Free-form keys where the contract says so.
    expect(strict.safeParse({ a: 'ok', free: { any: 1 }, loose: { c: 1, other: 2 } }).success).toBe(true);
    // Refinements kept.
    expect(strict.safeParse({ a: 'bad' }).success).toBe(false);
    // The contract itself is unchanged (the console parses with it).
    expect(schema.safeParse({ a: 'ok', zz: 1 }).success).toBe(true);
  });

  it('a route without a body takes nothing, null or {}', () => {
    expect(NO_BODY.safeParse(undefined).success).toBe(true);
    expect(NO_BODY.safeParse(null).success).toBe(true);
    expect(NO_BODY.safeParse({}).success).toBe(true);
    expect(keysOf(NO_BODY.safeParse({ __matrix: 1 }))).toEqual([['', '__matrix']]);
  });
});
