import { defineModule } from '../../platform/module';
import { staffRoutes } from './staff.routes';
import { createStaffService } from './staff.service';

/** Staff accounts that program administrators create (the /admins screen builds on it). */
export const staffModule = defineModule({
  name: 'staff',
  async register(app, { db }) {
    await app.register(staffRoutes, { staff: createStaffService({ db }) });
  },
});
