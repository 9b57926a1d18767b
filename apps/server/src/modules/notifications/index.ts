import { defineModule } from '../../platform/module';
import { loadAudioLibrary } from './notifications.queries';
import { notificationsRoutes } from './notifications.routes';
import { createNotificationsService } from './notifications.service';

/** Notifications to patients (SMS, e-mail, push), audio reminders, and the staff's notification bell. */
export const notificationsModule = defineModule({
  name: 'notifications',
  prepare: loadAudioLibrary,
  async register(app, { db }) {
    await app.register(notificationsRoutes, { notifications: createNotificationsService({ db }) });
  },
});
