import { randomBytes } from 'node:crypto';
import {
  CARE_ROLES,
  DEVICE_MESSAGES,
  type DeviceKind,
  type DeviceListQuery,
  pageOf,
  type StaffRole,
} from '@caredeck/contracts';
import type { Config } from '../../config';
import { programAccess } from '../../platform/access/access.queries';
import type { Actor, StaffActor } from '../../platform/access/actor';
import { audit } from '../../platform/audit/audit';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { visiblePrograms } from '../tenancy/tenancy.queries';
import {
  assignDevice,
  type CommandRow,
  claimableDevice,
  type DeviceRow,
  deviceById,
  devicesPage,
  devicesPerVendor,
  finishCommand,
  insertCommand,
  insertDevice,
  isSubscribed,
  patientDevice,
  patientInProgram,
  recentCommands,
  recentEvents,
  replaceSecretHash,
  setSubscription,
} from './devices.queries';
import { secretHash } from './gateway/broker';
import type { DeviceGateway } from './gateway/gateway';
import { commandsTopic, eventsTopic, rejectionTopic, repliesTopic, statusTopic } from './gateway/topics';

const stamp = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/**
 * A device as answered. Controllers (the fleet's operators, outside the care team) see which patient
 * record a device is assigned to, never the patient's name (minimum necessary; docs/devices.md).
 */
export function deviceView({ reports_presence: _, ...d }: DeviceRow, actor?: Actor) {
  const patient =
    d.patient && actor?.realm === 'controller' ? { id: d.patient.id, name: `#${d.patient.id}` } : d.patient;
  return { ...d, patient, last_seen_at: stamp(d.last_seen_at), provisioned_at: stamp(d.provisioned_at) };
}

/**
 * Whether a command can reach a device now. The embedded broker sees every connection: `connected` is
 * the truth. Behind an external broker `connected` is what the device's status messages reported (ADR
 * 049); a device that never published one (older firmware) counts as reachable when heard from in the
 * last 30 minutes, the only fact there is about it.
 */
export function isReachable(
  device: Pick<DeviceRow, 'connected' | 'online' | 'reports_presence'>,
  broker: 'embedded' | 'external' | 'off',
): boolean {
  if (device.connected) return true;
  return broker === 'external' && !device.reports_presence && device.online;
}

function commandView(c: CommandRow) {
  return { ...c, created_at: stamp(c.created_at)!, answered_at: stamp(c.answered_at) };
}

/** The integrations CareDeck speaks: dispensers and inhalers over MQTT, measuring devices by webhook. */
const INTEGRATIONS: { vendor: string; name: string; kinds: DeviceKind[]; channel: 'mqtt' | 'webhook' }[] = [
  { vendor: 'medesto', name: 'Medesto smart dispensers', kinds: ['dispenser'], channel: 'mqtt' },
  {
    vendor: 'caredeck',
    name: 'CareDeck devices (inhalers, NFC pod readers)',
    kinds: ['inhaler', 'nfc_reader'],
    channel: 'mqtt',
  },
  { vendor: 'omron', name: 'Omron blood-pressure cuffs', kinds: ['bp_cuff'], channel: 'mqtt' },
  { vendor: 'masimo', name: 'Masimo pulse oximeters', kinds: ['pulse_oximeter'], channel: 'mqtt' },
  {
    vendor: 'withings',
    name: 'Withings scales and wearables',
    kinds: ['scale', 'wearable'],
    channel: 'webhook',
  },
];

const newSecret = () => randomBytes(24).toString('base64url');
/** Listening on these means "every address": the address devices use is the one the console is reached at. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);

/** A device list's filters and page; the inhaler list sends its program and page only. */
type DeviceListInput = Partial<DeviceListQuery> & { page: number; per_page: number };

export function createDevicesService(deps: { db: Database; gateway: DeviceGateway; config: Config }) {
  const { db, gateway, config } = deps;
  const startedAt = new Date().toISOString();

  const adminIdOf = (actor: Actor) => (actor.realm === 'staff' ? actor.adminId : null);

  async function dispenserOf(id: number): Promise<DeviceRow> {
    const device = await deviceById(db, id, 'dispenser');
    // Staff reach this only for a dispenser of their program (the access hook); a controller sees the fleet.
    if (!device) throw AppError.notFound(DEVICE_MESSAGES.notFound);
    return device;
  }

  function checkType(device: DeviceRow, type: number) {
    if (device.dispenser_type !== type)
      throw AppError.validation({ dispenserType: [DEVICE_MESSAGES.wrongType(device.dispenser_type ?? 0)] });
  }

  /** The program a device is registered into: the body's (the caller must look after patients there), or the only one. */
  async function programFor(actor: Actor, programId: number | undefined): Promise<number | null> {
    if (actor.realm === 'controller') return programId ?? null;
    if (programId !== undefined) {
      const program = await programAccess(db, actor.adminId, programId);
      if (!program || program.roles.length === 0) throw AppError.notFound();
      if (!program.roles.some((r: StaffRole) => (CARE_ROLES as readonly StaffRole[]).includes(r)))
        throw AppError.forbidden();
      return program.id;
    }
    const visible = (await visiblePrograms(db, actor.adminId)).map((p) => p.id);
    if (visible.length !== 1) throw AppError.validation({ program_id: [DEVICE_MESSAGES.programRequired] });
    return programFor(actor, visible[0]);
  }

  async function checkPatient(programId: number | null, patientId: number | null | undefined) {
    if (!patientId) return null;
    if (programId === null || !(await patientInProgram(db, patientId, programId)))
      throw AppError.validation({ patient_id: [DEVICE_MESSAGES.patientOutsideProgram] });
    return patientId;
  }

  /**
   * Where a device signs in (docs/devices.md "Registering from the console"): the embedded broker's port and
   * address (null when it listens on every address), or an external broker's host and port (never its
   * credentials), with the device's own topics.
   */
  function connectionOf(serial: string) {
    const status = gateway.status();
    let broker: { kind: 'embedded' | 'external'; host: string | null; port: number | null } | null = null;
    if (status.broker === 'embedded') {
      const host = config.MQTT_HOST ?? config.HOST;
      broker = { kind: 'embedded', host: WILDCARD_HOSTS.has(host) ? null : host, port: status.port };
    } else if (status.broker === 'external' && config.MQTT_URL) {
      const url = new URL(config.MQTT_URL);
      broker = { kind: 'external', host: url.hostname, port: url.port ? Number(url.port) : 1883 };
    }
    return {
      broker,
      username: serial,
      topics: {
        events: eventsTopic(serial),
        replies: repliesTopic(serial),
        commands: commandsTopic(serial),
        rejections: rejectionTopic(serial),
        status: statusTopic(serial),
      },
    };
  }

  async function register(
    actor: Actor,
    input: {
      serial: string;
      vendor: string;
      kind: DeviceKind;
      dispenserType: number | null;
      programId?: number;
      patientId?: number | null;
      verified: boolean;
    },
  ) {
    const programId = await programFor(actor, input.programId);
    const patientId = await checkPatient(programId, input.patientId);
    const secret = newSecret();
    return db.transaction(async (tx) => {
      const id = await insertDevice(tx, {
        ...input,
        programId,
        patientId,
        secretHash: secretHash(secret),
      });
      if (id === null) throw AppError.conflict(DEVICE_MESSAGES.serialTaken);
      await audit(tx, {
        actorAdminId: adminIdOf(actor),
        actorRealm: actor.realm,
        programId,
        action: 'device.registered',
        subjectType: 'device',
        subjectId: id,
        details: { kind: input.kind, vendor: input.vendor },
        ip: actor.ip,
      });
      return { id, secret };
    });
  }

  return {
    async dispenser(actor: Actor, id: number) {
      const device = await dispenserOf(id);
      const [events, commands, subscribed] = await Promise.all([
        recentEvents(db, id),
        recentCommands(db, id),
        actor.realm === 'staff' ? isSubscribed(db, id, actor.adminId) : Promise.resolve(false),
      ]);
      return {
        ...deviceView(device, actor),
        subscribed,
        recent_events: events.map((e) => ({
          ...e,
          occurred_at: stamp(e.occurred_at)!,
          received_at: stamp(e.received_at)!,
        })),
        recent_commands: commands.map(commandView),
      };
    },

    /** Follows or stops following a dispenser's live events (a staff socket; controllers poll the detail). */
    async subscribe(actor: Actor, input: { id: number; dispenserType: number; on: boolean }) {
      const device = await dispenserOf(input.id);
      checkType(device, input.dispenserType);
      if (actor.realm === 'staff') await setSubscription(db, device.id, actor.adminId, input.on);
      return {
        message: input.on ? DEVICE_MESSAGES.subscribed : DEVICE_MESSAGES.unsubscribed,
        subscribed: input.on,
      };
    },

    /**
     * Sends a command and waits for the device's reply. Type 1 speaks JSON-RPC 2.0 (the command line in
     * `params.command`), type 2 a command with one argument. Every command and its outcome is logged.
     */
    async message(
      actor: Actor,
      input: { id: number; dispenserType: number; data: string | { command: string; arg?: unknown } },
    ) {
      const device = await dispenserOf(input.id);
      checkType(device, input.dispenserType);
      if (device.dispenser_type === 1 && typeof input.data !== 'string')
        throw AppError.validation({ data: [DEVICE_MESSAGES.type1Command] });
      if (device.dispenser_type === 2 && typeof input.data === 'string')
        throw AppError.validation({ data: [DEVICE_MESSAGES.type2Command] });
      // A dispenser that is not connected cannot answer: a state the caller can act on (connect it, try again),
      // so 409 at once, before anything is recorded (ADR 060), never a wait or a gateway time-out.
      if (!isReachable(device, gateway.status().broker)) throw AppError.conflict(DEVICE_MESSAGES.offline);
      const body: Record<string, unknown> =
        typeof input.data === 'string'
          ? { jsonrpc: '2.0', method: 'cli', params: { command: input.data } }
          : { command: input.data.command, arg: input.data.arg ?? null };
      const commandId = await insertCommand(db, {
        deviceId: device.id,
        adminId: adminIdOf(actor),
        controllerId: actor.realm === 'controller' ? actor.controllerId : null,
        request: body,
      });
      await audit(db, {
        actorAdminId: adminIdOf(actor),
        actorRealm: actor.realm,
        programId: device.program_id,
        action: 'dispenser.command',
        subjectType: 'device',
        subjectId: device.id,
        details: { command_id: commandId, dispenser_type: device.dispenser_type },
        ip: actor.ip,
      });
      const timeout = config.DEVICE_COMMAND_TIMEOUT_MS;
      const reply = await gateway.command(device.serial, commandId, { id: commandId, ...body }, timeout);
      const command = commandView(await finishCommand(db, commandId, reply));
      if (reply) return { timedOut: false, body: { message: DEVICE_MESSAGES.replied, command } };
      // Connected but silent: the command went out and may still be carried out, so it is not to be retried
      // blindly; 504 with the command record (its status `timed_out`), as the contract declares (ADR 060).
      return {
        timedOut: true,
        body: { message: DEVICE_MESSAGES.timedOut(Math.round(timeout / 1000)), command },
      };
    },

    async patientDispenser(actor: StaffActor, input: { patientId: number }) {
      const device = await patientDevice(db, input.patientId, actor.program!.id, 'dispenser');
      if (!device) throw AppError.notFound(DEVICE_MESSAGES.noDispenser);
      return deviceView(device);
    },

    async list(actor: Actor, input: DeviceListInput) {
      const { rows, total } = await devicesPage(
        db,
        {
          adminId: adminIdOf(actor),
          kind: input.kind,
          programId: input.program_id,
          patientId: input.patient_id,
          serial: input.serial,
          connected: input.connected,
        },
        input,
      );
      return pageOf(
        rows.map((d) => deviceView(d, actor)),
        input,
        total,
      );
    },

    /** Claims a vendor's stock device into a program with a new secret (shown once). */
    async provision(
      actor: Actor,
      input: { vendor: string; device_id: string; program_id?: number; patient_id?: number | null },
    ) {
      const programId = await programFor(actor, input.program_id);
      const patientId = await checkPatient(programId, input.patient_id);
      const secret = newSecret();
      const id = await db.transaction(async (tx) => {
        const found = await claimableDevice(tx, input.vendor, input.device_id, programId);
        if (found === null) throw AppError.badRequest(DEVICE_MESSAGES.unknownDevice(input.device_id));
        await assignDevice(tx, found, { programId, patientId, secretHash: secretHash(secret) });
        await audit(tx, {
          actorAdminId: adminIdOf(actor),
          actorRealm: actor.realm,
          programId,
          action: 'device.provisioned',
          subjectType: 'device',
          subjectId: found,
          ip: actor.ip,
        });
        return found;
      });
      const data = deviceView((await deviceById(db, id))!, actor);
      return { message: DEVICE_MESSAGES.provisioned, data, secret, connection: connectionOf(data.serial) };
    },

    async registerMedesto(
      actor: Actor,
      input: { serial: string; dispenser_type: 1 | 2; program_id?: number; patient_id?: number | null },
    ) {
      const { id, secret } = await register(actor, {
        serial: input.serial,
        vendor: 'medesto',
        kind: 'dispenser',
        dispenserType: input.dispenser_type,
        programId: input.program_id,
        patientId: input.patient_id,
        verified: true,
      });
      const data = deviceView((await deviceById(db, id))!, actor);
      return { message: DEVICE_MESSAGES.provisioned, data, secret, connection: connectionOf(data.serial) };
    },

    async registerInhaler(
      actor: Actor,
      input: { serial: string; verified: boolean; program_id?: number; patient_id?: number | null },
    ) {
      const { id, secret } = await register(actor, {
        serial: input.serial,
        vendor: 'caredeck',
        kind: 'inhaler',
        dispenserType: null,
        programId: input.program_id,
        patientId: input.patient_id,
        verified: input.verified,
      });
      const data = deviceView((await deviceById(db, id))!, actor);
      return { message: DEVICE_MESSAGES.provisioned, data, secret, connection: connectionOf(data.serial) };
    },

    /**
     * Gives a device a new secret (ADR 051): a lost one leaves the device unusable, a leaked one must stop
     * working. The new secret is answered once, with where the device signs in; only its hash is stored, in
     * the same transaction as the audit row (which never holds the secret). After the commit the embedded
     * broker closes the device's connections signed in with the old secret; new sign-ins with it are refused
     * from the commit on. Staff reach only devices of their program (the access hook; a device that left the
     * program meanwhile is not found), controllers the fleet.
     */
    async replaceSecret(actor: Actor, id: number) {
      const secret = newSecret();
      const hash = secretHash(secret);
      const programId = actor.realm === 'staff' ? (actor.program?.id ?? null) : null;
      if (actor.realm === 'staff' && programId === null)
        throw AppError.notFound(DEVICE_MESSAGES.deviceNotFound);
      await db.transaction(async (tx) => {
        const device = await replaceSecretHash(tx, id, hash, programId);
        if (!device) throw AppError.notFound(DEVICE_MESSAGES.deviceNotFound);
        await audit(tx, {
          actorAdminId: adminIdOf(actor),
          actorRealm: actor.realm,
          programId: device.program_id,
          action: 'device.secret_replaced',
          subjectType: 'device',
          subjectId: id,
          details: { kind: device.kind, vendor: device.vendor, broker: gateway.status().broker },
          ip: actor.ip,
        });
      });
      const disconnected = gateway.revoke(id, hash);
      const data = deviceView((await deviceById(db, id))!, actor);
      return {
        message: DEVICE_MESSAGES.secretReplaced,
        data,
        secret,
        connection: connectionOf(data.serial),
        disconnected,
      };
    },

    /** The counters of this process's gateway (each API process has its own; they restart with it). */
    gatewayStatus() {
      const s = gateway.status();
      return {
        broker: s.broker,
        port: s.port,
        submitted: s.submitted,
        stored: s.stored,
        duplicates: s.duplicates,
        batches: s.batches,
        failed_batches: s.failedBatches,
        connections: s.connections ?? 0,
        auth_failures: s.authFailures ?? 0,
        malformed: (s.malformed ?? 0) + (s.external?.malformed ?? 0),
        forbidden: s.forbidden ?? 0,
        unknown_devices: s.external?.unknownDevices ?? 0,
        unknown_statuses: s.external?.unknownStatuses ?? 0,
        started_at: startedAt,
      };
    },

    async integrations(actor: Actor) {
      const programIds =
        actor.realm === 'staff' ? (await visiblePrograms(db, actor.adminId)).map((p) => p.id) : null;
      const counts = new Map((await devicesPerVendor(db, programIds)).map((c) => [c.vendor, c.devices]));
      return { data: INTEGRATIONS.map((i) => ({ ...i, devices: counts.get(i.vendor) ?? 0 })) };
    },
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
