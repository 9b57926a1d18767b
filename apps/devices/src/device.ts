/**
 * One simulated dispenser speaking CareDeck's MQTT protocol (docs/devices.md): it signs in with its
 * serial and secret, publishes events at QoS 1 on `devices/{serial}/events` and answers commands from
 * `devices/{serial}/commands` on `devices/{serial}/replies` — JSON-RPC 2.0 for type 1, command and
 * argument for type 2. Its presence (ADR 049): a Last Will `{"online":false}` on `devices/{serial}/status`
 * (QoS 1, retained), `{"online":true}` retained after every CONNACK once subscribed to its commands (ADR
 * 050), `{"online":false}` before a clean disconnect — so an external broker's gateway sees it come and go
 * like the embedded broker does, and sends it what was programmed while it was away.
 */
import { createHmac, randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';

export type EventBody = { seq: number; type: string; at: string } & Record<string, unknown>;

/** The demo devices' secret, as the demo seed derives it (apps/server/src/seed/demo-devices.ts). */
export function demoDeviceSecret(serial: string, demoPassword: string): string {
  return createHmac('sha256', demoPassword).update(`device:${serial}`).digest('base64url').slice(0, 32);
}

/** A sequence number from the event's own time: a replayed history resends the same numbers (idempotent). */
export function seqOf(at: number, index = 0): number {
  return Math.floor(at / 1000) * 16 + (index % 16);
}

export type SimulatedDevice = {
  serial: string;
  client: MqttClient;
  publish(event: EventBody): Promise<void>;
  close(): Promise<void>;
};

export type DeviceState = { battery: number; pods: number; firmware: string };

/** Answers a command as the firmware would; unknown commands get an error, never silence. */
export function answer(command: Record<string, unknown>, state: DeviceState): Record<string, unknown> {
  if (command.jsonrpc === '2.0') {
    const line = String((command.params as { command?: unknown } | undefined)?.command ?? '').trim();
    const [verb = '', ...args] = line.split(/\s+/);
    const result = execute(verb, args[0], state);
    return result === null
      ? { jsonrpc: '2.0', id: command.id, error: { code: -32601, message: `Unknown command: ${verb}` } }
      : { jsonrpc: '2.0', id: command.id, result };
  }
  const result = execute(String(command.command ?? ''), command.arg, state);
  return result === null
    ? { id: command.id, ok: false, error: `Unknown command: ${String(command.command)}` }
    : { id: command.id, ok: true, command: command.command, result };
}

function execute(verb: string, arg: unknown, state: DeviceState): Record<string, unknown> | null {
  switch (verb.toLowerCase()) {
    case 'status':
    case 'get_status':
      return { battery: state.battery, pods: state.pods, firmware: state.firmware };
    case 'dispense': {
      const n = Math.max(1, Math.min(4, Number(arg ?? 1) || 1));
      state.pods = Math.max(0, state.pods - n);
      return { dispensed: n, pods: state.pods };
    }
    case 'ping':
      return { pong: true };
    case 'reboot':
      return { rebooting: true };
    case 'version':
      return { firmware: state.firmware };
    default:
      return null;
  }
}

export async function connectDevice(options: {
  url: string;
  serial: string;
  secret: string;
  state?: DeviceState;
  /** Called for each command received (after the reply is sent). */
  onCommand?: (command: Record<string, unknown>, reply: Record<string, unknown>) => void;
}): Promise<SimulatedDevice> {
  const state = options.state ?? { battery: 87, pods: 28, firmware: '1.4.2' };
  const status = `devices/${options.serial}/status`;
  const offline = JSON.stringify({ online: false });
  const client = mqtt.connect(options.url, {
    username: options.serial,
    password: options.secret,
    // A fresh client id per connection: two simulator runs may speak for the same device at once.
    clientId: `sim-${options.serial}-${randomBytes(4).toString('hex')}`,
    clean: true,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
    // The broker publishes this when the device vanishes (keepalive expired, socket dropped).
    will: { topic: status, payload: Buffer.from(offline), qos: 1, retain: true },
  });
  // After each CONNACK, the first and every reconnection: subscribe to the commands, then say online
  // (retained: the broker's truth). In that order: behind an external broker the gateway sends what was
  // programmed while the device was away when it hears `online`, and a clean session receives nothing
  // before it subscribes (docs/devices.md "Presence").
  const announce = () =>
    client.subscribeAsync(`devices/${options.serial}/commands`, { qos: 1 }).then(() =>
      client.publishAsync(status, JSON.stringify({ online: true, firmware: state.firmware }), {
        qos: 1,
        retain: true,
      }),
    );
  let first: Promise<unknown> | null = null;
  client.on('connect', () => {
    const done = announce();
    first ??= done;
    done.catch(() => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  await first;
  client.on('message', (_topic, payload) => {
    let command: Record<string, unknown>;
    try {
      command = JSON.parse(payload.toString()) as Record<string, unknown>;
    } catch {
      return;
    }
    const reply = answer(command, state);
    client.publish(`devices/${options.serial}/replies`, JSON.stringify(reply), { qos: 1 });
    options.onCommand?.(command, reply);
  });
  return {
    serial: options.serial,
    client,
    async publish(event) {
      await client.publishAsync(`devices/${options.serial}/events`, JSON.stringify(event), { qos: 1 });
    },
    /** A clean disconnect: offline first (the broker drops the will on DISCONNECT). */
    async close() {
      if (client.connected)
        await client.publishAsync(status, offline, { qos: 1, retain: true }).catch(() => undefined);
      await client.endAsync();
    },
  };
}
