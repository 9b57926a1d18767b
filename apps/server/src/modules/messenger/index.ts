import { defineModule } from '../../platform/module';
import { guestRoutes } from './guest.routes';
import { createGuestService } from './guest.service';
import { messengerRoutes } from './messenger.routes';
import { createMessengerService } from './messenger.service';

/**
 * The staff messenger (02 §7 "Messenger": conversations, threads, mentions, urgent messages, attachments)
 * and its guest channel (signed links to one conversation).
 */
export const messengerModule = defineModule({
  name: 'messenger',
  async register(app, { db, realtime, storage, config }) {
    const messenger = createMessengerService({ db, realtime, storage });
    const guests = createGuestService({ db, config, storage, messenger });
    const form = { storage, maxFileBytes: config.MESSENGER_MAX_FILE_MB * 1024 * 1024, prefix: 'messenger' };
    realtime.verifyGuest(async (token) => {
      const session = await guests.authenticate(token);
      return session ? { conversationId: session.conversation_id, inviteId: session.id } : null;
    });
    await app.register(async (scope) => {
      await messengerRoutes(scope, { messenger, form });
      await guestRoutes(scope, { guests, form });
    });
  },
});
