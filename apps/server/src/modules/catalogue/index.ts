import { defineModule } from '../../platform/module';
import { loadShippedCatalogue } from './catalogue.data';
import { catalogueRoutes } from './catalogue.routes';

/** The drug and ICD-10-CM catalogue shipped with the project (ADR 022), and its lookups. */
export const catalogueModule = defineModule({
  name: 'catalogue',
  prepare: loadShippedCatalogue,
  async register(app, { db }) {
    await app.register(catalogueRoutes, { db });
  },
});
