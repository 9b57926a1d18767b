import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { TokenService } from './auth/tokens';
import type { Database, Queryable } from './db/client';
import type { FileStorage } from './files/storage';
import type { App } from './http/types';
import type { Realtime } from './realtime/realtime';

/** What every module may use: the platform's services, built once by buildApp. */
export type ModuleContext = {
  db: Database;
  config: Config;
  tokens: TokenService;
  realtime: Realtime;
  /** Uploaded files (local disk under FILES_DIR by default). */
  storage: FileStorage;
  log: FastifyBaseLogger;
  /** Work to finish before the database goes away (mail sent after an answer, …). */
  onClose(fn: () => Promise<void>): void;
};

/** A test/seed factory: inserts what it is given (with defaults for the rest) and returns it. */
// biome-ignore lint/suspicious/noExplicitAny: factories differ in their input and output.
export type Factory = (db: Queryable, input?: any) => Promise<unknown>;

/**
 * A server module: one folder under modules/ with its routes, service, queries, tables and tests.
 * It joins the application through one line in modules/index.ts. Its tables join the schema by their
 * file name (`*.tables.ts`, found by drizzle-kit), its factories the `given` of tests, seed and bench.
 */
export type ServerModule<F extends Record<string, Factory> = Record<string, Factory>> = {
  name: string;
  /** Builds the module's services from the context and registers its routes (each with its access rule). */
  register(app: App, ctx: ModuleContext): Promise<void> | void;
  /** Data the module ships (reference catalogues), loaded after the migrations, before anything serves. */
  prepare?: (db: Queryable) => Promise<void>;
  factories?: F;
};

export function defineModule<F extends Record<string, Factory>>(module: ServerModule<F>): ServerModule<F> {
  return module;
}
