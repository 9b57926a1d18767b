import { defineModule } from '../../platform/module';
import { authRoutes } from './auth.routes';
import { createControllerService } from './controller.service';
import { createAdmin, createControllerAccount } from './identity.factories';
import { createIdentityService } from './identity.service';
import { userRoutes } from './user.routes';
import { createUserService } from './user.service';

/** Staff and controller accounts: sign-in flows, sessions, the signed-in user and their settings. */
export const identityModule = defineModule({
  name: 'identity',
  async register(app, { db, tokens, config, realtime, log, onClose }) {
    const identity = createIdentityService({ db, tokens, config, realtime, log });
    const users = createUserService({ db, config });
    const controller = createControllerService({ db, tokens, config });
    // Account mail work started after an answer finishes before the database goes away.
    onClose(() => identity.settled());
    await app.register(authRoutes, { identity, users, controller, config, tokens });
    await app.register(userRoutes, { users, identity, realtime, config });
  },
  factories: { admin: createAdmin, controllerAccount: createControllerAccount },
});
