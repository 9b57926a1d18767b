import { defineModule } from '../../platform/module';
import { notesRoutes } from './notes.routes';
import { createNotesService } from './notes.service';

/** Notes on patients, with files, edits, escalations and follow-ups (02 §7 "Notes and follow-ups"). */
export const notesModule = defineModule({
  name: 'notes',
  async register(app, { db, realtime, storage, config }) {
    const notes = createNotesService({ db, storage, realtime });
    // Its own scope: the multipart parser is registered for these routes only.
    await app.register(async (scope) => {
      await notesRoutes(scope, {
        notes,
        form: { storage, maxFileBytes: config.MESSENGER_MAX_FILE_MB * 1024 * 1024 },
      });
    });
  },
});
