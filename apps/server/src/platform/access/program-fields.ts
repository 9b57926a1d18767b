import type { RouteContract } from '@caredeck/contracts';
import * as contracts from '@caredeck/contracts';
import { z } from 'zod';

/** Input fields that name a program: resolved and checked by the platform on every route (ADR 062). */
export const PROGRAM_FIELDS = ['program_id', 'program_ids'] as const;

/** The fields of an object schema, through the wrappers zod puts around it (pipes, optionals, effects). */
export function objectShape(schema: unknown): Record<string, unknown> | null {
  let s = schema as z.ZodType | undefined;
  for (let i = 0; i < 10 && s; i++) {
    if (s instanceof z.ZodObject) return s.shape as Record<string, unknown>;
    const def = (
      s as unknown as { _zod?: { def?: { in?: z.ZodType; innerType?: z.ZodType; schema?: z.ZodType } } }
    )._zod?.def;
    s = def?.in ?? def?.innerType ?? def?.schema;
  }
  return null;
}

/** The program fields a contract's query or body declares. */
export function programFieldsOf(contract: RouteContract): { query: string[]; body: string[] } {
  const pick = (schema: unknown) => {
    const shape = objectShape(schema);
    return shape ? PROGRAM_FIELDS.filter((f) => f in shape) : [];
  };
  return { query: pick(contract.query), body: pick(contract.body) };
}

/** Every contract route of packages/contracts. */
export function allContractRoutes(): RouteContract[] {
  const found: RouteContract[] = [];
  for (const group of Object.values(contracts)) {
    if (!group || typeof group !== 'object') continue;
    for (const value of Object.values(group as Record<string, unknown>)) {
      const c = value as RouteContract;
      if (
        c &&
        typeof c === 'object' &&
        typeof c.path === 'string' &&
        typeof c.method === 'string' &&
        'responses' in c
      )
        found.push(c);
    }
  }
  return found;
}
