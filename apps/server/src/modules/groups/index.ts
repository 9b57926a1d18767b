import { defineModule } from '../../platform/module';
import { createGroup } from './groups.factories';
import { groupsRoutes } from './groups.routes';
import { createGroupsService } from './groups.service';

/** Cohorts: named sets of patients of a program. */
export const groupsModule = defineModule({
  name: 'groups',
  async register(app, { db }) {
    await app.register(groupsRoutes, { groups: createGroupsService({ db }) });
  },
  factories: { group: createGroup },
});
