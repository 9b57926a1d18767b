import { smsContract } from '@caredeck/contracts';
import { repeatJob } from '../../platform/jobs/repeat';
import { defineModule } from '../../platform/module';
import { smsRoutes, smsWebhookRoutes } from './sms.routes';
import { createSmsService } from './sms.service';
import { httpSmsTransport, logSmsTransport } from './sms.transport';

/** Texts to and from patients' phones (01 §7 "SMS and notifications"; 02 temp messages), through the outbox. */
export const smsModule = defineModule({
  name: 'sms',
  async register(app, { db, realtime, config, log, onClose }) {
    const publicUrl = (config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`).replace(/\/+$/, '');
    const transport = config.SMS_PROVIDER_URL
      ? httpSmsTransport(config.SMS_PROVIDER_URL, config.SMS_FROM, `${publicUrl}${smsContract.status.path}`)
      : logSmsTransport(log);
    const sms = createSmsService({
      db,
      realtime,
      transport,
      webhookSecret: config.SMS_WEBHOOK_SECRET ?? null,
      log,
    });
    app.decorate('smsOutbox', { deliver: () => sms.deliverPending() });
    await app.register(smsRoutes, { sms });
    await app.register(smsWebhookRoutes, { sms });
    repeatJob('sms', config.SMS_DELIVERY_MS, () => sms.deliverPending(), { log, onClose, config });
  },
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Delivers the due texts now (tests; the timer does it every SMS_DELIVERY_MS). */
    smsOutbox: { deliver(): Promise<number> };
  }
}
