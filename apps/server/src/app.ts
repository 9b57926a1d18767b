import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants as zlibConstants } from 'node:zlib';
import { API_PREFIXES, FHIR_PREFIX, platformContract } from '@caredeck/contracts';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyLoggerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { type Config, runs } from './config';
import { MODULES } from './modules';
import { accessPlugin, foreignPathObject } from './platform/access/access.plugin';
import { createTokenService } from './platform/auth/tokens';
import type { Database } from './platform/db/client';
import { s3Storage } from './platform/files/s3';
import { diskStorage } from './platform/files/storage';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './platform/http/errors';
import { healthRoutes } from './platform/http/health';
import { spaRoutes } from './platform/http/spa';
import type { App } from './platform/http/types';
import type { ModuleContext } from './platform/module';
import { createRealtime, type Realtime } from './platform/realtime/realtime';

export const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** `logOptions` adds to (never replaces) the redacting serializers, e.g. a stream in tests. */
export type AppDeps = {
  config: Config;
  db: Database;
  logOptions?: Omit<FastifyLoggerOptions, 'serializers' | 'redact'> & { stream?: NodeJS.WritableStream };
};

type LoggedRequest = {
  method: string;
  url: string;
  id: string;
  routeOptions?: { url?: string };
  params?: unknown;
};

/**
 * The path a request log shows: the route's pattern with its numeric ids filled in. Other path values
 * stay as their parameter name, since some spec paths carry PHI or secrets (`temp_messages_history/{phone}`,
 * `order-form-links/{token}`, `drugs/{q}`). Unmatched paths and the console's own pages (`/*`) are logged
 * as requested, without the query string (search text can be PHI).
 */
export function loggedPath(req: LoggedRequest): string {
  const pattern = req.routeOptions?.url;
  const params = (req.params ?? {}) as Record<string, unknown>;
  if (!pattern || pattern.includes('*')) return req.url.split('?')[0] ?? '';
  return pattern.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (whole, name: string) => {
    const value = params[name];
    return typeof value === 'string' && /^[0-9]{1,16}$/.test(value) ? value : whole;
  });
}

/** Request logs carry the method, the path (numeric ids only, see loggedPath) and status. */
const REDACTED_LOGGER = {
  serializers: {
    req: (req: LoggedRequest) => ({ id: req.id, method: req.method, path: loggedPath(req) }),
  },
  redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
};

/** Builds the whole HTTP application; tests build it too and call it with inject(). */
export async function buildApp(deps: AppDeps): Promise<{ app: App; realtime: Realtime }> {
  const { config, db } = deps;
  const app = Fastify({
    logger:
      config.LOG_LEVEL === 'silent' && !deps.logOptions
        ? false
        : { level: config.LOG_LEVEL, ...deps.logOptions, ...REDACTED_LOGGER },
    bodyLimit: 1_048_576,
    // Closing answers 503 in the contract's error shape (the hook below), not Fastify's own body.
    return503OnClosing: false,
    // The spec writes some paths with a trailing slash (`…/check-user-exist/`): both spellings answer.
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrorHandler,
    // Requests Node's HTTP parser refuses (431, 400, 408) answer in the contract's error shape too.
    clientErrorHandler,
    // A hop count trusts that many proxies in front, counted from this server (what proxy-addr does
    // for a number): the client's own X-Forwarded-For entries are never believed.
    trustProxy:
      typeof config.TRUST_PROXY === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.TRUST_PROXY)
        : config.TRUST_PROXY,
  }).withTypeProvider<ZodTypeProvider>();
  // While the server drains (SIGTERM), a request still arriving on an open connection answers 503 with
  // Retry-After in the contract's error shape `{ message }` (issue 28; ADR 060), then the connection closes.
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!draining) return;
    return reply
      .status(503)
      .headers({ 'retry-after': '5', connection: 'close' })
      .send({ message: 'The server is restarting. Please try again in a moment.' });
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app, { foreignPathObject: (request) => foreignPathObject(db, request) });

  // A worker or gateway process (ADR 061) answers its health checks only: the API is another process's.
  if (!runs(config, 'api')) {
    const served = new Set<string>([platformContract.health.path, platformContract.ready.path]);
    app.addHook('onRequest', async (request, reply) => {
      if (served.has(request.url.split('?')[0] ?? '')) return;
      return reply
        .status(404)
        .send({ message: `This process serves no API (ROLE=${config.ROLE.join(',')}).` });
    });
  }

  const tokens = createTokenService(config.JWT_SECRET, config.ACCESS_TOKEN_TTL_SECONDS);
  const realtime = createRealtime({ db, tokens, config, log: app.log });
  const closing: (() => Promise<void>)[] = [];
  const context: ModuleContext = {
    db,
    config,
    tokens,
    realtime,
    storage: config.S3_URL
      ? s3Storage({
          url: config.S3_URL,
          region: config.S3_REGION,
          accessKeyId: config.S3_ACCESS_KEY_ID ?? '',
          secretAccessKey: config.S3_SECRET_ACCESS_KEY ?? '',
        })
      : diskStorage(config.FILES_DIR ?? path.join(config.DATA_DIR, 'files')),
    log: app.log,
    onClose: (fn) => closing.push(fn),
  };

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // 'self' covers the same-origin ws:/wss: socket (CSP 3); no other host may be reached.
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        // Upgrading requests and HSTS belong behind TLS; on plain HTTP (a LAN address) they break the console.
        upgradeInsecureRequests: config.NODE_ENV === 'production' ? [] : null,
      },
    },
    hsts: config.NODE_ENV === 'production',
  });
  // Answers of the API and of FHIR can carry PHI: no browser or proxy cache may keep them. Only the public
  // API documentation is cacheable.
  app.addHook('onSend', async (request, reply) => {
    const path = request.url;
    if (
      (path.startsWith(API_PREFIXES.api) && !path.startsWith(API_PREFIXES.docs)) ||
      path.startsWith(FHIR_PREFIX)
    )
      reply.header('cache-control', 'no-store');
  });
  // Answers over 1 KiB are compressed for clients that accept it (brotli at a fast level, else gzip).
  // The console's files come precompressed from the build and are left as they are.
  await app.register(fastifyCompress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(fastifyCookie);
  await app.register(accessPlugin, { db, tokens, config });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'CareDeck API', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: API_PREFIXES.docs });

  await app.register(healthRoutes, { db, config });
  for (const module of MODULES) await module.register(app, context);
  await app.register(spaRoutes, { distDir: config.WEB_DIST ?? DEFAULT_WEB_DIST });

  app.addHook('onReady', async () => {
    await realtime.attach(runs(config, 'api') ? app.server : null);
  });
  app.addHook('preClose', async () => {
    await realtime.close();
  });
  // Work modules started after an answer (account mail …) finishes before the database goes away.
  app.addHook('onClose', async () => {
    await Promise.all(closing.map((fn) => fn()));
  });
  return { app, realtime };
}
