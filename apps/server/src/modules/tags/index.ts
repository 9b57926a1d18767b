import { defineModule } from '../../platform/module';
import { tagsRoutes } from './tags.routes';
import { createTagsService } from './tags.service';

/** Tags in folders put on patients, and care protocols (02 §7 "Tags", "Protocols"; ADR 038). */
export const tagsModule = defineModule({
  name: 'tags',
  async register(app, { db }) {
    await app.register(tagsRoutes, { tags: createTagsService({ db }) });
  },
});
