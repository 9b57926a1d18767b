import type { FastifyBaseLogger } from 'fastify';
import { type Config, runs } from '../../../config';
import type { Database } from '../../../platform/db/client';
import type { Realtime } from '../../../platform/realtime/realtime';
import { type BatchResult, resetConnections } from '../ingest.queries';
import { type GatewayStats, startEmbeddedBroker } from './broker';
import { createProgrammingDelivery } from './delivery';
import { type ExternalStats, startExternalGateway } from './external';
import { createIngestor, type IngestStats } from './ingestor';
import { commandsTopic } from './topics';

/** Live events of the console: a patient's doses or measurements changed; a followed dispenser spoke. */
export const PATIENT_DATA_EVENT = 'patient.data';
export const DISPENSER_EVENTS_EVENT = 'dispenser.events';
/** To the controller realm: the fleet changed (a device connected, went away, or sent events). */
export const FLEET_CHANGED_EVENT = 'fleet.changed';
/** Fleet changes are told to /controller at most this often (a busy fleet commits a batch every 20 ms). */
export const FLEET_EVENT_MS = 1000;

export type GatewayStatus = { broker: 'embedded' | 'external' | 'off'; port: number | null } & IngestStats &
  Partial<GatewayStats> & {
    external?: ExternalStats;
    /** Schedules and goals sent to devices (at once or on reconnect), and those the broker refused. */
    programming: { delivered: number; failed: number };
  };

/**
 * The device gateway of this process: the ingestor (batched, acknowledged after commit), the embedded
 * MQTT broker, and the commands sent to devices with their replies. Live updates go out through the
 * realtime service, so with REDIS_URL every API node sees them.
 */
export function createDeviceGateway(deps: {
  db: Database;
  config: Config;
  log: FastifyBaseLogger;
  realtime: Realtime;
}) {
  const { db, config, log, realtime } = deps;
  // Trailing throttle: one fleet.changed per FLEET_EVENT_MS however many batches and connections.
  let fleetTimer: NodeJS.Timeout | null = null;
  const fleetChanged = () => {
    if (fleetTimer) return;
    fleetTimer = setTimeout(() => {
      fleetTimer = null;
      realtime.toControllers(FLEET_CHANGED_EVENT, {});
    }, FLEET_EVENT_MS);
    fleetTimer.unref();
  };
  /** Other modules' work after each committed batch (the alert engine marks its patients for evaluation). */
  const batchListeners: ((result: BatchResult) => void)[] = [];
  const ingestor = createIngestor({
    pool: db.$client,
    maxBatch: config.INGEST_BATCH_SIZE,
    maxWaitMs: config.INGEST_BATCH_WAIT_MS,
    lanes: config.INGEST_LANES,
    onCommitted(result) {
      for (const p of result.patients)
        realtime.toProgram(p.program_id, PATIENT_DATA_EVENT, { patient_id: p.patient_id, kinds: p.kinds });
      for (const s of result.subscribers)
        realtime.toUser(s.admin_id, DISPENSER_EVENTS_EVENT, { device_id: s.device_id, events: s.events });
      for (const listener of batchListeners) listener(result);
      fleetChanged();
    },
    onError(err) {
      log.error(
        { err: { message: (err as Error).message, code: (err as { code?: string }).code } },
        'ingest batch failed',
      );
    },
  });
  let broker: Awaited<ReturnType<typeof startEmbeddedBroker>> | null = null;
  let external: ReturnType<typeof startExternalGateway> | null = null;
  const onReply = ({ body }: { body: Record<string, unknown> }) => {
    const id = typeof body.id === 'number' ? body.id : Number(body.id);
    waiting.get(id)?.(body);
  };
  const publish = (topic: string, payload: string) =>
    broker ? broker.publish(topic, payload) : external ? external.publish(topic, payload) : Promise.resolve();
  /** Stored schedules and goals, sent when their device can receive them (ADR 050). */
  const programming = createProgrammingDelivery({
    db,
    log,
    maxWaitMs: config.INGEST_BATCH_WAIT_MS,
    publish: (topic, payload) =>
      broker || external ? publish(topic, payload) : Promise.reject(new Error('no broker')),
  });
  /** Commands waiting for their device's reply, by command id. */
  const waiting = new Map<number, (reply: Record<string, unknown>) => void>();

  return {
    ingestor,
    /** Calls `listener` after every committed batch with the patients whose doses or readings changed. */
    onBatch(listener: (result: BatchResult) => void): void {
      batchListeners.push(listener);
    },
    /**
     * A gateway process ingests (the embedded broker, or its share of the external broker's events); an API
     * process without the gateway role only sends commands, through the external broker (ADR 061).
     */
    async start(): Promise<void> {
      const ingests = runs(config, 'gateway');
      if (!ingests && !runs(config, 'api')) return;
      if (config.MQTT_URL) {
        external = startExternalGateway({
          mode: ingests ? 'ingest' : 'commands',
          shareGroup: config.MQTT_SHARE_GROUP,
          url: config.MQTT_URL,
          clientId: config.MQTT_CLIENT_ID,
          pool: db.$client,
          ingestor,
          log,
          onReply,
          onFleetChange: fleetChanged,
          onConnected: (deviceIds) => programming.connected(deviceIds),
          presenceWaitMs: config.INGEST_BATCH_WAIT_MS,
        });
        // A broker that is down must not stop the console: the gateway keeps reconnecting.
        const up = await Promise.race([
          external.connected.then(() => true),
          new Promise<boolean>((r) => setTimeout(() => r(false), 5000).unref()),
        ]);
        if (up) log.info({ url: new URL(config.MQTT_URL).host }, 'subscribed to the external MQTT broker');
        else log.warn('the external MQTT broker does not answer yet; retrying');
        return;
      }
      if (config.MQTT_PORT < 0 || !ingests) return;
      await resetConnections(db.$client);
      broker = await startEmbeddedBroker({
        pool: db.$client,
        ingestor,
        log,
        host: config.MQTT_HOST ?? config.HOST,
        port: config.MQTT_PORT,
        onReply,
        onFleetChange: fleetChanged,
        onListening: (deviceId) => programming.connected([deviceId]),
      });
      log.info({ port: broker.port }, 'MQTT broker listening');
    },
    status(): GatewayStatus {
      return {
        broker: broker ? 'embedded' : external ? 'external' : 'off',
        port: broker?.port ?? null,
        ...ingestor.stats,
        ...(broker?.stats ?? {}),
        ...(external ? { external: external.stats } : {}),
        programming: { ...programming.stats },
      };
    },
    /**
     * Publishes a command to a device and waits for the reply carrying its id; null after the time-out.
     * The command is delivered at QoS 1 to a connected device (a disconnected one never answers).
     */
    async command(serial: string, id: number, message: Record<string, unknown>, timeoutMs: number) {
      if (!broker && !external) return null;
      const reply = new Promise<Record<string, unknown> | null>((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve(null);
        }, timeoutMs);
        waiting.set(id, (body) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(body);
        });
      });
      // A message the broker did not take is not answered either: the time-out says so.
      await publish(commandsTopic(serial), JSON.stringify(message)).catch(() => undefined);
      return reply;
    },
    /**
     * A device's secret was replaced (ADR 051): the embedded broker closes the device's connections signed
     * in with another secret and answers how many. Null when CareDeck sees no connections: an external
     * broker signs devices in itself (docs/devices.md "An external broker"), or there is no broker.
     */
    revoke(deviceId: number, newHash: string): number | null {
      return broker ? broker.revoke(deviceId, newHash) : null;
    },
    /**
     * Sends the stored, pending programming (schedules, goals) of these devices to those that can receive
     * it now — with the embedded broker, a connection subscribed to its commands; behind an external
     * broker, `connected` (its presence) — and marks it sent; the others get it when they next connect.
     * Called after the programming is committed; resolves with the rows sent and never rejects.
     */
    deliverProgramming(deviceIds: number[]) {
      if (broker) return programming.deliver(deviceIds.filter((id) => broker!.isListening(id)));
      if (external) return programming.deliver(deviceIds);
      return Promise.resolve([]);
    },
    async close(): Promise<void> {
      if (fleetTimer) clearTimeout(fleetTimer);
      fleetTimer = null;
      // Before the brokers close: what is being sent is sent (and its rows say so).
      await programming.close();
      await ingestor.close();
      await broker?.close();
      await external?.close();
      broker = null;
      external = null;
    },
  };
}

export type DeviceGateway = ReturnType<typeof createDeviceGateway>;
