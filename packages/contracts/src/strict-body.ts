import { z } from 'zod';

/**
 * Request bodies are strict (issue 28, ADR 070): a field the route's contract does not name answers 422 naming
 * it (`errors.<field>`: "This field is not accepted."), at any depth, never silently dropped. The contracts stay
 * as they are (the console parses answers with them); the server validates with a strict copy made here:
 *
 * - every object of the body (`z.object`, which strips unknown keys) becomes strict, recursively through
 *   optional, nullable, default, arrays, tuples, unions (discriminated too), pipes (their input side) and lazy
 *   schemas;
 * - free-form keys stay free where the contract says so: a `z.record` (e.g. an order form's `fields`, a
 *   saved view's `default_settings`), an object declared loose (`z.looseObject`, `.passthrough()`) and an
 *   intersection (its sides each name only part of the keys, e.g. a dispenser command's `record & {device}`)
 *   are left as declared. ADR 070 lists them.
 */
const cache = new WeakMap<z.ZodType, z.ZodType>();

type Def = Record<string, unknown> & { type: string };

/** A copy of a schema with some of its definition replaced (keeps its checks, refinements and metadata). */
function withDef<T extends z.ZodType>(schema: T, changes: Record<string, unknown>): T {
  const def = Object.defineProperties(
    {},
    {
      ...Object.getOwnPropertyDescriptors(schema._zod.def),
      ...Object.getOwnPropertyDescriptors(changes),
    },
  );
  return schema.clone(def as T['_zod']['def']);
}

export function strictBody<T extends z.ZodType>(schema: T): T {
  const known = cache.get(schema);
  if (known) return known as T;
  const made = makeStrict(schema);
  cache.set(schema, made);
  return made as T;
}

function makeStrict(schema: z.ZodType): z.ZodType {
  const def = schema._zod.def as unknown as Def;
  switch (def.type) {
    case 'object': {
      const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType>;
      const strictShape: Record<string, z.ZodType> = {};
      let changed = false;
      for (const [key, field] of Object.entries(shape)) {
        strictShape[key] = strictBody(field);
        if (strictShape[key] !== field) changed = true;
      }
      // catchall undefined: the default (strip) → strict. A declared catchall (loose, strict, typed) is kept.
      const strip = def.catchall === undefined;
      if (!strip && !changed) return schema;
      return withDef(schema, {
        shape: strictShape,
        ...(strip ? { catchall: z.never() } : {}),
      });
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional': {
      const inner = def.innerType as z.ZodType;
      const strict = strictBody(inner);
      return strict === inner ? schema : withDef(schema, { innerType: strict });
    }
    case 'array': {
      const element = def.element as z.ZodType;
      const strict = strictBody(element);
      return strict === element ? schema : withDef(schema, { element: strict });
    }
    case 'tuple': {
      const items = def.items as z.ZodType[];
      const strict = items.map((item) => strictBody(item));
      const rest = def.rest as z.ZodType | null | undefined;
      const strictRest = rest ? strictBody(rest) : rest;
      return strict.every((s, i) => s === items[i]) && strictRest === rest
        ? schema
        : withDef(schema, { items: strict, rest: strictRest });
    }
    case 'union': {
      const options = def.options as z.ZodType[];
      const strict = options.map((option) => strictBody(option));
      return strict.every((s, i) => s === options[i]) ? schema : withDef(schema, { options: strict });
    }
    case 'pipe': {
      const input = def.in as z.ZodType;
      const strict = strictBody(input);
      return strict === input ? schema : withDef(schema, { in: strict });
    }
    case 'lazy': {
      const getter = def.getter as () => z.ZodType;
      return z.lazy(() => strictBody(getter()));
    }
    default:
      // record, intersection, primitives, custom: as declared.
      return schema;
  }
}

/**
 * The body of a route whose contract declares none: absent, null or `{}`; a field answers 422 like an unknown
 * field of any other body (a client sending one expects it to have an effect).
 */
export const NO_BODY = z.strictObject({}).nullable().optional();
