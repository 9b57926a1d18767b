import type { App } from './types';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: Buffer;
  }
}

/**
 * For signed webhooks: within the calling plugin's scope, JSON bodies are parsed from bytes kept on
 * `request.rawBody`, which the HMAC signature is computed over (re-serialised JSON would not match).
 */
export function keepRawJsonBody(app: App): void {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const raw = body as Buffer;
    req.rawBody = raw;
    try {
      done(null, JSON.parse(raw.toString('utf8')));
    } catch {
      done(Object.assign(new Error('The request body must be JSON.'), { statusCode: 400 }), undefined);
    }
  });
}
