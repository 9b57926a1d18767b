import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { Aedes, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { deviceCredential, setConnected } from '../ingest.queries';
import { parseDeviceEvent } from './events';
import type { Ingestor } from './ingestor';
import { parseStatus } from './presence';
import { commandsTopic, eventsTopic, parseTopic, rejectionTopic } from './topics';

export type GatewayStats = {
  connections: number;
  authFailures: number;
  malformed: number;
  forbidden: number;
  failed: number;
};

export type DeviceReply = { serial: string; body: Record<string, unknown> };

type DeviceClient = Client & {
  /**
   * The signed-in device; `hash` is the secret hash it signed in with and `since` the rotation count of
   * this broker when its credential was read (ADR 051: a secret replaced meanwhile closes it).
   */
  device?: {
    id: number;
    serial: string;
    eventsTopic: string;
    commandsTopic: string;
    hash: string;
    since: number;
    /** Registered (the `client` event), subscribed to its commands, `connected` stored: see `announce`. */
    registered?: boolean;
    subscribed?: boolean;
    stored?: boolean;
    listening?: boolean;
    announced?: boolean;
  };
};

/** How long a replaced secret is remembered for sign-ins that read the old one just before (they take ms). */
const ROTATION_MEMORY_MS = 60_000;

export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The embedded MQTT broker (aedes) with the gateway in its hooks: a device signs in with its serial and
 * secret, publishes only under its own topic and subscribes only to its own commands. An event is parsed
 * in `authorizePublish` and that hook's callback, which makes aedes send the PUBACK, is held until the
 * event's batch has committed (DESIGN §5): acknowledged means stored.
 */
export async function startEmbeddedBroker(deps: {
  pool: pg.Pool;
  ingestor: Ingestor;
  log: FastifyBaseLogger;
  host: string;
  port: number;
  onReply: (reply: DeviceReply) => void;
  /** A device connected or its last connection closed (after the state is stored). */
  onFleetChange?: () => void;
  /**
   * A connection of a device now receives its commands: it is registered, subscribed to its commands topic
   * (a restored session's subscription counts) and its `connected` state is committed. Once per connection.
   */
  onListening?: (deviceId: number) => void;
}): Promise<{
  port: number;
  stats: GatewayStats;
  /** Whether a connection of this device, on this broker, is subscribed to its commands now. */
  isListening(deviceId: number): boolean;
  publish(topic: string, payload: string): Promise<void>;
  /**
   * A device's secret was replaced (committed): closes its connections signed in with another secret and
   * any sign-in that read the old one while this ran; answers how many connections were closed.
   */
  revoke(deviceId: number, newHash: string): number;
  close(): Promise<void>;
}> {
  const { pool, ingestor, log } = deps;
  const stats: GatewayStats = { connections: 0, authFailures: 0, malformed: 0, forbidden: 0, failed: 0 };
  /**
   * Secrets replaced through this process (ADR 051), by device: the rotation's number and the new hash.
   * A connection whose sign-in read its credential before a rotation of its device, with another secret,
   * is closed when it registers (aedes registers a client a few steps after `authenticate`).
   */
  const rotated = new Map<number, { at: number; hash: string }>();
  let rotationCount = 0;
  /** An event from a signed-in device on its own topic: stored, then acknowledged (`done`). */
  function submitEvent(
    device: NonNullable<DeviceClient['device']>,
    packet: { payload: Buffer | string },
    done: (err?: Error | null) => void,
  ): void {
    const parsed = parseDeviceEvent(packet.payload);
    if (!parsed.ok) {
      // MQTT 3.1.1 has no negative acknowledgement: the event is acknowledged (a resend would fail
      // the same way), counted, and the device told why on its rejections topic.
      stats.malformed++;
      broker.publish(
        {
          cmd: 'publish',
          topic: rejectionTopic(device.serial),
          payload: Buffer.from(JSON.stringify({ reason: parsed.reason, bytes: packet.payload.length })),
          qos: 0,
          retain: false,
          dup: false,
        },
        () => {},
      );
      done(null);
      return;
    }
    const e = parsed.event;
    ingestor.submit(
      { deviceId: device.id, seq: e.seq, type: e.type, at: e.at, payload: e.payload },
      (err) => {
        if (err) stats.failed++;
        // An error disconnects the device without a PUBACK: it resends after reconnecting.
        done(err);
      },
    );
  }
  const broker: Aedes = await Aedes.createBroker({
    // A device may keep this many QoS 1 events unacknowledged while their batch is written.
    concurrency: 1000,
    authenticate(client, username, password, done) {
      const c = client as DeviceClient;
      if (!username || !password || username.length > 64) {
        stats.authFailures++;
        return done(Object.assign(new Error('Bad user name or password'), { returnCode: 4 }), false);
      }
      const hash = secretHash(password.toString('utf8'));
      const check = (): void => {
        const since = rotationCount;
        deviceCredential(pool, username).then(
          (device) => {
            // The device's secret was replaced while its credential was read: read it again.
            if (device && (rotated.get(device.id)?.at ?? 0) > since) return check();
            if (!device?.secret_hash || !sameHash(hash, device.secret_hash)) {
              stats.authFailures++;
              return done(Object.assign(new Error('Bad user name or password'), { returnCode: 4 }), false);
            }
            c.device = {
              id: device.id,
              serial: device.serial,
              eventsTopic: eventsTopic(device.serial),
              commandsTopic: commandsTopic(device.serial),
              hash,
              since,
            };
            done(null, true);
          },
          (err) => {
            log.error({ err }, 'device authentication failed');
            done(Object.assign(new Error('Server unavailable'), { returnCode: 3 }), false);
          },
        );
      };
      check();
    },
    authorizeSubscribe(client, subscription, done) {
      const device = (client as DeviceClient).device;
      const topic = parseTopic(subscription.topic);
      if (
        device &&
        topic &&
        topic.serial === device.serial &&
        (topic.kind === 'commands' || topic.kind === 'rejections')
      )
        return done(null, subscription);
      stats.forbidden++;
      done(new Error('Not authorized'), null);
    },
    authorizePublish(client, packet, done) {
      if (!client) return done(null); // the gateway's own commands
      const device = (client as DeviceClient).device;
      // The usual message, an event on the device's own topic, is recognised without parsing the topic.
      if (device && packet.topic === device.eventsTopic) {
        submitEvent(device, packet, done);
        return;
      }
      const topic = parseTopic(packet.topic);
      if (!device || !topic || topic.serial !== device.serial) {
        stats.forbidden++;
        return done(new Error('Not authorized'));
      }
      if (topic.kind === 'replies') {
        try {
          const body = JSON.parse(packet.payload.toString()) as unknown;
          if (packet.payload.length <= 4096 && body && typeof body === 'object' && !Array.isArray(body))
            deps.onReply({ serial: device.serial, body: body as Record<string, unknown> });
          else stats.malformed++;
        } catch {
          stats.malformed++;
        }
        return done(null);
      }
      if (topic.kind === 'status') {
        // The presence protocol of an external broker (ADR 049), so one firmware speaks to both: here the
        // connection itself is the truth (client events below), so a status, or the will the broker
        // publishes for a vanished device, is accepted and checked, never applied.
        if (!parseStatus(packet.payload as Buffer).ok && packet.payload.length > 0) stats.malformed++;
        return done(null);
      }
      if (topic.kind !== 'events') {
        stats.forbidden++;
        return done(new Error('Not authorized'));
      }
      submitEvent(device, packet, done);
    },
  });
  // A device may hold several connections (a firmware update, a second radio): it is disconnected when
  // its last one closes. Its open connections are known, so a replaced secret can close them (ADR 051).
  const open = new Map<number, Set<DeviceClient>>();
  /**
   * Connections subscribed to their device's commands, by device. Pending programming is sent when a
   * connection can receive it (ADR 050): a QoS 1 message published before the device subscribed (a clean
   * session subscribes after CONNACK, and the `client` event comes before it) would reach nobody.
   */
  const listeners = new Map<number, number>();
  type Device = NonNullable<DeviceClient['device']>;
  const listen = (device: Device) => {
    if (device.listening || !device.registered || !device.subscribed) return;
    device.listening = true;
    listeners.set(device.id, (listeners.get(device.id) ?? 0) + 1);
    announce(device);
  };
  const unlisten = (device: Device) => {
    if (!device.listening) return;
    device.listening = false;
    device.announced = false;
    const left = (listeners.get(device.id) ?? 1) - 1;
    if (left > 0) listeners.set(device.id, left);
    else listeners.delete(device.id);
  };
  // After `connected` is committed: the claim reads it, so a schedule stored meanwhile is not missed.
  const announce = (device: Device) => {
    if (device.announced || !device.listening || !device.stored) return;
    device.announced = true;
    deps.onListening?.(device.id);
  };
  broker.on('subscribe', (subscriptions, client) => {
    const device = (client as DeviceClient | null)?.device;
    if (!device || device.subscribed) return;
    if (!subscriptions.some((s) => s.topic === device.commandsTopic && (s.qos as number) !== 128)) return;
    device.subscribed = true;
    listen(device);
  });
  broker.on('unsubscribe', (topics, client) => {
    const device = (client as DeviceClient | null)?.device;
    if (!device || !topics.includes(device.commandsTopic)) return;
    device.subscribed = false;
    unlisten(device);
  });
  broker.on('client', (client) => {
    const c = client as DeviceClient;
    const device = c.device;
    stats.connections++;
    if (!device) return;
    const mine = open.get(device.id) ?? new Set<DeviceClient>();
    open.set(device.id, mine.add(c));
    // Signed in with a secret that was replaced while it connected: closed below, never sent programming.
    const rotation = rotated.get(device.id);
    const replaced = rotation !== undefined && rotation.at > device.since && rotation.hash !== device.hash;
    if (!replaced) {
      device.registered = true;
      listen(device);
    }
    setConnected(pool, device.id, true)
      .then(() => {
        device.stored = true;
        deps.onFleetChange?.();
        announce(device);
      })
      .catch((err) => log.warn({ err }, 'device state'));
    // After it is counted, so its close balances.
    if (replaced) c.close();
  });
  broker.on('clientDisconnect', (client) => {
    const c = client as DeviceClient;
    const device = c.device;
    if (!device) return;
    unlisten(device);
    device.registered = false;
    const mine = open.get(device.id);
    mine?.delete(c);
    if (mine && mine.size > 0) return;
    open.delete(device.id);
    setConnected(pool, device.id, false)
      .then(() => deps.onFleetChange?.())
      .catch((err) => log.warn({ err }, 'device state'));
  });
  broker.on('clientError', (_client, err) =>
    log.debug({ err: { message: err.message } }, 'device connection error'),
  );

  const server: Server = createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.port, deps.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : deps.port;
  return {
    port,
    stats,
    isListening: (deviceId) => listeners.has(deviceId),
    publish(topic, payload) {
      return new Promise((resolve, reject) =>
        broker.publish(
          { cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false },
          (err) => (err ? reject(err) : resolve()),
        ),
      );
    },
    revoke(deviceId, newHash) {
      const at = ++rotationCount;
      rotated.set(deviceId, { at, hash: newHash });
      setTimeout(() => {
        if (rotated.get(deviceId)?.at === at) rotated.delete(deviceId);
      }, ROTATION_MEMORY_MS).unref();
      let closed = 0;
      for (const client of [...(open.get(deviceId) ?? [])]) {
        if (client.device?.hash === newHash) continue;
        client.close();
        closed++;
      }
      return closed;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await closed;
    },
  };
}
