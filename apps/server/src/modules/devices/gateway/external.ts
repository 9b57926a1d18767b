import { type Socket, connect as tcpConnect } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import mqttPacket, { type Packet } from 'mqtt-packet';
import type pg from 'pg';
import { parseDeviceEvent } from './events';
import type { Ingestor } from './ingestor';
import { createPresenceWriter, parseStatus } from './presence';
import { parseTopic } from './topics';

export type ExternalStats = {
  connected: boolean;
  received: number;
  /** Malformed events, replies and status messages (counted, acknowledged, never stored). */
  malformed: number;
  /** Events of serials CareDeck does not know (counted, acknowledged, dropped). */
  unknownDevices: number;
  /** Well-formed status messages received (`devices/{serial}/status`). */
  statuses: number;
  /**
   * Status messages of serials CareDeck does not know: counted apart from events, since a broker keeps the
   * retained status of a device long after it left CareDeck and every node receives it at each start.
   */
  unknownStatuses: number;
  reconnects: number;
};

/**
 * The gateway as a subscriber of an external broker (Mosquitto, EMQX; `MQTT_URL`). A small MQTT 3.1.1
 * client of our own (mqtt-packet): general-purpose clients handle one incoming message at a time and
 * acknowledge it when their handler returns, which would make "acknowledged after commit" one batch per
 * message. Here every QoS 1 PUBLISH joins the current batch and its PUBACK is written after the batch
 * commits, many messages in flight at once.
 *
 * - A persistent session (`clean: false`, a fixed client id): what the broker sent and was not yet
 *   acknowledged is sent again after a reconnect or a crash, so nothing acknowledged to a device is lost
 *   as long as the broker keeps the session (docs/devices.md: max_queued_messages, max_inflight_messages).
 * - `$share/{MQTT_SHARE_GROUP}/devices/+/events` (`caredeck` by default): several gateways share the load; replies to commands are
 *   subscribed by every node (the node that sent a command waits for its reply).
 * - `devices/+/status` (not shared: a shared subscription gets no retained messages, and every node
 *   should know presence; applying a state twice changes nothing): each device's presence, retained, with
 *   the offline one as its Last Will (ADR 049). Applied in the order the broker delivers them; the
 *   retained status delivered at each (re)subscription is the broker's current truth.
 * - Devices sign in to the broker, not to CareDeck: the broker's own authentication and ACLs must bind a
 *   device to `devices/{its serial}/#`; the gateway maps the serial to the device and drops unknown ones.
 */
export function startExternalGateway(deps: {
  url: string;
  clientId: string;
  pool: pg.Pool;
  ingestor: Ingestor;
  log: FastifyBaseLogger;
  onReply: (reply: { serial: string; body: Record<string, unknown> }) => void;
  /** A device's reported connection state changed (after it is stored). */
  onFleetChange?: () => void;
  /**
   * Devices whose `online` status this node just applied (committed): they are owed their pending
   * programming. A device publishes `online` after subscribing to its commands (docs/devices.md "Presence").
   */
  onConnected?: (deviceIds: number[]) => void;
  /** How long status messages gather before one write (milliseconds). */
  presenceWaitMs?: number;
  /**
   * `ingest` (a gateway, the default): events (shared), statuses and replies, in a persistent session.
   * `commands` (an API process without the gateway role, ADR 061): replies only, in a clean session under
   * a client id of its own, so that it can publish commands and hear their answers without ever taking a
   * share of the events or the session of a gateway.
   */
  mode?: 'ingest' | 'commands';
  /** The shared subscription's group (MQTT_SHARE_GROUP). */
  shareGroup?: string;
}) {
  const commandsOnly = deps.mode === 'commands';
  const target = new URL(deps.url);
  const stats: ExternalStats = {
    connected: false,
    received: 0,
    malformed: 0,
    unknownDevices: 0,
    statuses: 0,
    unknownStatuses: 0,
    reconnects: 0,
  };
  const presence = createPresenceWriter({
    pool: deps.pool,
    ...(deps.presenceWaitMs !== undefined ? { maxWaitMs: deps.presenceWaitMs } : {}),
    onApplied({ changed, unknown, online }) {
      stats.unknownStatuses += unknown;
      if (changed > 0) deps.onFleetChange?.();
      if (online.length > 0) deps.onConnected?.(online);
    },
  });
  const serials = new Map<string, { id: number | null; at: number }>();
  let socket: Socket | null = null;
  let closing = false;
  let nextId = 1;
  let ping: NodeJS.Timeout | null = null;
  let retry: NodeJS.Timeout | null = null;
  let ready: () => void = () => {};
  const connected = new Promise<void>((resolve) => {
    ready = resolve;
  });

  const send = (packet: Packet) => {
    if (socket && !socket.destroyed) socket.write(mqttPacket.generate(packet));
  };
  /**
   * PUBACKs of one tick leave in one write: a committed batch acknowledges up to thousands of messages at
   * once, and a write (a system call) per 4-byte packet was the external gateway's largest cost.
   */
  let acks: number[] = [];
  const flushAcks = () => {
    const ids = acks;
    acks = [];
    if (!socket || socket.destroyed || ids.length === 0) return;
    const out = Buffer.allocUnsafe(ids.length * 4);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      out[i * 4] = 0x40; // PUBACK
      out[i * 4 + 1] = 2; // remaining length: the message id
      out[i * 4 + 2] = id >> 8;
      out[i * 4 + 3] = id & 0xff;
    }
    socket.write(out);
  };
  const puback = (messageId: number) => {
    if (acks.length === 0) process.nextTick(flushAcks);
    acks.push(messageId);
  };
  const messageId = () => {
    nextId = nextId >= 65_535 ? 1 : nextId + 1;
    return nextId;
  };

  async function deviceId(serial: string): Promise<number | null> {
    const cached = serials.get(serial);
    if (cached && Date.now() - cached.at < 60_000) return cached.id;
    const res = await deps.pool.query<{ id: number }>('SELECT id FROM devices WHERE serial = $1', [serial]);
    const id = res.rows[0]?.id ?? null;
    serials.set(serial, { id, at: Date.now() });
    return id;
  }

  function onPublish(packet: mqttPacket.IPublishPacket) {
    stats.received++;
    const ack = () => {
      if (packet.qos > 0 && packet.messageId !== undefined) puback(packet.messageId);
    };
    const topic = parseTopic(packet.topic);
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    if (!topic) return ack();
    if (topic.kind === 'replies') {
      try {
        const body = JSON.parse(payload.toString()) as unknown;
        if (body && typeof body === 'object' && !Array.isArray(body))
          deps.onReply({ serial: topic.serial, body: body as Record<string, unknown> });
      } catch {
        stats.malformed++;
      }
      return ack();
    }
    if (topic.kind === 'status') {
      const status = parseStatus(payload);
      if (!status.ok) {
        if (!status.cleared) stats.malformed++;
        return ack();
      }
      stats.statuses++;
      // Acknowledged once stored; on a failure the broker sends it again on the next connection.
      presence.submit(topic.serial, status.online, (err) => {
        if (!err) ack();
        else if (!closing) socket?.destroy();
      });
      return;
    }
    if (topic.kind !== 'events') return ack();
    const parsed = parseDeviceEvent(payload);
    if (!parsed.ok) {
      stats.malformed++;
      return ack();
    }
    const submit = (id: number | null) => {
      if (id === null) {
        stats.unknownDevices++;
        return ack();
      }
      const e = parsed.event;
      deps.ingestor.submit(
        { deviceId: id, seq: e.seq, type: e.type, at: e.at, payload: e.payload },
        (err) => {
          // Not acknowledged: the broker sends it again on the next connection of this session.
          if (err) socket?.destroy();
          else ack();
        },
      );
    };
    // A known serial is answered from memory without a promise per message.
    const cached = serials.get(topic.serial);
    if (cached && Date.now() - cached.at < 60_000) submit(cached.id);
    else deviceId(topic.serial).then(submit, () => socket?.destroy());
  }

  function open() {
    const parser = mqttPacket.parser({ protocolVersion: 4 });
    const s = tcpConnect(Number(target.port || 1883), target.hostname);
    socket = s;
    s.setNoDelay(true);
    s.on('connect', () =>
      send({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 4,
        clean: commandsOnly,
        clientId: commandsOnly ? `${deps.clientId}-commands-${process.pid}` : deps.clientId,
        keepalive: 30,
        ...(target.username ? { username: decodeURIComponent(target.username) } : {}),
        ...(target.password ? { password: Buffer.from(decodeURIComponent(target.password)) } : {}),
      }),
    );
    s.on('data', (chunk) => parser.parse(chunk));
    parser.on('packet', (packet: Packet) => {
      switch (packet.cmd) {
        case 'connack':
          if (packet.returnCode !== 0) {
            deps.log.error({ returnCode: packet.returnCode }, 'external MQTT broker refused the gateway');
            s.destroy();
            return;
          }
          stats.connected = true;
          send({
            cmd: 'subscribe',
            messageId: messageId(),
            subscriptions: commandsOnly
              ? [{ topic: 'devices/+/replies', qos: 1 }]
              : [
                  { topic: `$share/${deps.shareGroup ?? 'caredeck'}/devices/+/events`, qos: 1 },
                  { topic: 'devices/+/replies', qos: 1 },
                  { topic: 'devices/+/status', qos: 1 },
                ],
          });
          break;
        case 'suback':
          ready();
          break;
        case 'publish':
          onPublish(packet);
          break;
        default:
          break;
      }
    });
    parser.on('error', (err) => {
      deps.log.warn({ err: { message: err.message } }, 'external MQTT broker sent a malformed packet');
      s.destroy();
    });
    s.on('error', (err) =>
      deps.log.warn({ err: { message: err.message } }, 'external MQTT broker connection'),
    );
    s.on('close', () => {
      stats.connected = false;
      if (closing) return;
      stats.reconnects++;
      retry = setTimeout(open, 1000);
    });
  }

  open();
  ping = setInterval(() => send({ cmd: 'pingreq' }), 15_000);
  ping.unref();

  return {
    stats,
    /** Resolves once connected and subscribed (tests, the bench). */
    connected,
    /** Hands a QoS 1 message to the broker; refused while the gateway is not connected to it. */
    publish(topic: string, payload: string): Promise<void> {
      if (!socket || socket.destroyed || !stats.connected)
        return Promise.reject(new Error('not connected to the MQTT broker'));
      send({
        cmd: 'publish',
        topic,
        payload: Buffer.from(payload),
        qos: 1,
        messageId: messageId(),
        retain: false,
        dup: false,
      });
      return Promise.resolve();
    },
    async close(): Promise<void> {
      closing = true;
      if (ping) clearInterval(ping);
      if (retry) clearTimeout(retry);
      await presence.close();
      send({ cmd: 'disconnect' });
      socket?.end();
    },
  };
}
