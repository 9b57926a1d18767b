import { repeatJob } from '../../platform/jobs/repeat';
import { defineModule } from '../../platform/module';
import { loadAudioLibrary } from './notifications.queries';
import { notificationsRoutes } from './notifications.routes';
import { createNotificationsService } from './notifications.service';

/** Notifications to patients (SMS, e-mail, push), reminders, audio reminders, and the staff's bell. */
export const notificationsModule = defineModule({
  name: 'notifications',
  prepare: loadAudioLibrary,
  async register(app, { db, config, log, onClose }) {
    const notifications = createNotificationsService({ db });
    app.decorate('reminders', { sendDue: () => notifications.sendDue() });
    await app.register(notificationsRoutes, { notifications });
    repeatJob('reminders', config.REMINDERS_MS, () => notifications.sendDue(), { log, onClose, config });
  },
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends the due patient reminders now (tests; the timer does it every REMINDERS_MS). */
    reminders: { sendDue(): Promise<number> };
  }
}
