import { defineModule } from '../../platform/module';
import { channelRoutes } from './channel.routes';
import { createChannelService } from './channel.service';
import { createDevice } from './devices.factories';
import { devicesRoutes } from './devices.routes';
import { createDevicesService } from './devices.service';
import { createDeviceGateway } from './gateway/gateway';
import { webhooksRoutes } from './webhooks.routes';
import { createWebhooksService } from './webhooks.service';

/**
 * Devices: the fleet registry (dispensers type 1 and 2, inhalers, measuring devices, NFC readers), the
 * MQTT gateway that ingests their events (docs/devices.md) and the commands sent to them.
 */
export const devicesModule = defineModule({
  name: 'devices',
  async register(app, { db, config, log, realtime, onClose }) {
    const gateway = createDeviceGateway({ db, config, log, realtime });
    app.decorate('deviceGateway', gateway);
    await app.register(devicesRoutes, { devices: createDevicesService({ db, gateway, config }) });
    await app.register(channelRoutes, { channel: createChannelService({ db, gateway }) });
    await app.register(webhooksRoutes, {
      webhooks: createWebhooksService({ db, config, ingestor: gateway.ingestor }),
    });
    app.addHook('onReady', async () => {
      await gateway.start();
    });
    onClose(() => gateway.close());
  },
  factories: { device: createDevice },
});

declare module 'fastify' {
  interface FastifyInstance {
    /** The device gateway of this process (tests and the bench read its port and counters). */
    deviceGateway: import('./gateway/gateway').DeviceGateway;
  }
}
