import { MODULES } from '../modules';
import type { Queryable } from '../platform/db/client';
import type { Factory } from '../platform/module';

type Modules = (typeof MODULES)[number];
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;
type AllFactories = UnionToIntersection<NonNullable<Modules['factories']>>;
type Bound<F> = {
  [K in keyof F]: F[K] extends (db: Queryable, ...rest: infer A) => infer R ? (...rest: A) => R : never;
};

/** Every module's factories bound to one database: `given(db).program()`, `given(db).patient({ programId })`. */
export type Given = Bound<AllFactories>;

export function given(db: Queryable): Given {
  const out: Record<string, (input?: unknown) => Promise<unknown>> = {};
  for (const module of MODULES) {
    for (const [name, factory] of Object.entries(module.factories ?? {}) as [string, Factory][]) {
      if (name in out) throw new Error(`Two modules define the factory ${name}`);
      out[name] = (input?: unknown) => factory(db, input);
    }
  }
  return out as Given;
}
