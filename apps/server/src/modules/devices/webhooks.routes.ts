import { webhooksContract as c, WEBHOOK_SIGNATURE_HEADER } from '@caredeck/contracts';
import { access } from '../../platform/access/rules';
import { AppError } from '../../platform/http/errors';
import { keepRawJsonBody } from '../../platform/http/raw-body';
import { route } from '../../platform/http/route';
import type { App } from '../../platform/http/types';
import type { WebhooksService } from './webhooks.service';

/**
 * Vendor webhooks. Registered in their own scope: the JSON parser here keeps the raw bytes, which the
 * HMAC signature is computed over (re-serialised JSON would not match).
 */
export async function webhooksRoutes(app: App, deps: { webhooks: WebhooksService }) {
  keepRawJsonBody(app);
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
