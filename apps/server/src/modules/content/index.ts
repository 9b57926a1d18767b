import { defineModule } from '../../platform/module';
import { contentRoutes } from './content.routes';
import { createContentService } from './content.service';

/** The content library, staff folders of text-message templates and the SMS questions (02 §7 "Content"). */
export const contentModule = defineModule({
  name: 'content',
  async register(app, { db }) {
    await app.register(contentRoutes, { content: createContentService({ db }) });
  },
});
