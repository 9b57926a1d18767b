import { defineModule } from '../../platform/module';
import { messengerRoutes } from './messenger.routes';
import { createMessengerService } from './messenger.service';

/** The staff messenger: conversations, threads, mentions, urgent messages and attachments (02 §7 "Messenger"). */
export const messengerModule = defineModule({
  name: 'messenger',
  async register(app, { db, realtime, storage, config }) {
    const messenger = createMessengerService({ db, realtime, storage });
    await app.register(messengerRoutes, {
      messenger,
      form: { storage, maxFileBytes: config.MESSENGER_MAX_FILE_MB * 1024 * 1024, prefix: 'messenger' },
    });
  },
});
