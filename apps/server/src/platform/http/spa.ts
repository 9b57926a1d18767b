import { existsSync } from 'node:fs';
import path from 'node:path';
import { API_PREFIXES, FHIR_PREFIX } from '@caredeck/contracts';
import fastifyStatic from '@fastify/static';
import { access } from '../access/rules';
import { AppError } from './errors';
import type { App } from './types';

/**
 * Serves the built console: real files by path, index.html for every client-side route. Hashed files
 * under /assets/ are immutable for a year; index.html is revalidated on every load, so a deployment is
 * picked up at once.
 */
export async function spaRoutes(app: App, deps: { distDir: string }) {
  const root = path.resolve(deps.distDir);
  if (!existsSync(path.join(root, 'index.html'))) {
    app.log.warn(`console not built (${root}/index.html missing): only the API is served`);
    return;
  }
  // Our own Cache-Control (the plugin's default would send max-age=0 for hashed files too); the build's
  // .br and .gz siblings are served to clients that accept them, with Vary: Accept-Encoding.
  await app.register(fastifyStatic, { root, serve: false, cacheControl: false, preCompressed: true });
  app.get('/*', { config: { access: access.public() }, schema: { hide: true } }, async (req, reply) => {
    const urlPath = decodeURIComponent(req.url.split('?')[0] ?? '/');
    if (
      urlPath.startsWith(API_PREFIXES.api) ||
      urlPath.startsWith(FHIR_PREFIX) ||
      urlPath.startsWith('/socket.io')
    )
      throw AppError.notFound();
    const file = path.resolve(root, `.${urlPath}`);
    if (file.startsWith(`${root}${path.sep}`) && existsSync(file) && !file.endsWith(path.sep)) {
      const immutable = urlPath.startsWith('/assets/');
      return reply
        .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
        .sendFile(path.relative(root, file));
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
