import { webhooksContract as c, WEBHOOK_SIGNATURE_HEADER } from '@caredeck/contracts';
import { access } from '../../platform/access/rules';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { WebhooksService } from './webhooks.service';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: Buffer;
  }
}

/**
 * Vendor webhooks. Registered in their own scope: the JSON parser here keeps the raw bytes, which the
 * HMAC signature is computed over (re-serialised JSON would not match).
 */
export async function webhooksRoutes(app: App, deps: { webhooks: WebhooksService }) {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const raw = body as Buffer;
    req.rawBody = raw;
    try {
      done(null, JSON.parse(raw.toString('utf8')));
    } catch {
      done(Object.assign(new Error('The request body must be JSON.'), { statusCode: 400 }), undefined);
    }
  });
  route(app, c.deliver, {
    // Public: the vendor proves itself with the signature of each delivery.
    access: access.public(),
    handler: async (req) => {
      if (!req.rawBody) throw AppError.unauthenticated();
      const signature = req.headers[WEBHOOK_SIGNATURE_HEADER];
      return deps.webhooks.deliver({
        vendor: req.params.vendor,
        signature: Array.isArray(signature) ? signature[0] : signature,
        rawBody: req.rawBody,
        body: req.body,
      });
    },
  });
}
