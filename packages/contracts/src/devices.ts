import { z } from 'zod';
import { bodyId, idParam, line, MAX_PER_PAGE, paged, queryInt } from './common';
import { defineRoute } from './route';

export const DEVICE_KINDS = [
  'dispenser',
  'inhaler',
  'bp_cuff',
  'pulse_oximeter',
  'scale',
  'glucometer',
  'wearable',
  'nfc_reader',
] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];
export const DISPENSER_TYPES = [1, 2] as const;

/**
 * Paging of the device lists (issue 27: the fleet stopped at 1,000 with no next page). A client that sends
 * no `per_page` gets 100, the most a page holds, and `total`/`last_page` say whether there is more.
 */
const deviceListPage = {
  page: queryInt(1, 1_000_000_000).default(1),
  per_page: queryInt(1, 999_999_999)
    .default(MAX_PER_PAGE)
    .transform((n) => Math.min(n, MAX_PER_PAGE)),
};

/** GET devices and device_list: filters, then pages by serial. */
export const deviceListQuery = z.object({
  kind: z.enum(DEVICE_KINDS).optional(),
  program_id: idParam.optional(),
  patient_id: idParam.optional(),
  /** Part of the serial, any case. */
  serial: line().max(100).optional(),
  /** `true`: only devices connected now. */
  connected: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  ...deviceListPage,
});
export type DeviceListQuery = z.infer<typeof deviceListQuery>;

export const DEVICE_MESSAGES = {
  notFound: 'Dispenser not found',
  noDispenser: 'This patient has no dispenser.',
  unknownDevice: (id: string) => `Unknown Device: ${id}`,
  wrongType: (type: number) => `This dispenser is of type ${type}.`,
  type1Command: 'Type 1 dispensers take a command line (text).',
  type2Command: 'Type 2 dispensers take a command and its argument.',
  timedOut: (seconds: number) => `The dispenser did not answer within ${seconds} seconds.`,
  offline: 'The dispenser is not connected; it cannot answer now.',
  serialTaken: 'A device with this serial number already exists.',
  replied: 'The dispenser answered.',
  subscribed: 'Subscribed to the dispenser’s live events.',
  unsubscribed: 'Unsubscribed from the dispenser.',
  provisioned: 'Device provisioned',
  programRequired: 'Choose the program the device belongs to.',
  patientOutsideProgram: 'The patient is not in this program.',
  deviceNotFound: 'Device not found',
  secretReplaced: 'New secret issued. The old secret no longer works.',
} as const;

/** A device serial (its MQTT user name): 1–64 letters, digits, dots, dashes, colons or underscores. */
export const DEVICE_SERIAL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
/** The longest serial or vendor device id. */
export const DEVICE_SERIAL_MAX = 64;

const serial = line()
  .trim()
  .regex(DEVICE_SERIAL_PATTERN, 'Use 1–64 letters, digits, dots, dashes, colons or underscores.');

export const deviceEvent = z.object({
  seq: z.number().int(),
  type: z.string(),
  occurred_at: z.string(),
  received_at: z.string(),
  payload: z.record(z.string(), z.unknown()),
});

export const deviceCommand = z.object({
  id: z.number().int(),
  status: z.enum(['sent', 'answered', 'timed_out']),
  request: z.record(z.string(), z.unknown()),
  reply: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  answered_at: z.string().nullable(),
});
export type DeviceCommandView = z.infer<typeof deviceCommand>;

export const device = z.object({
  id: z.number().int(),
  serial: z.string(),
  vendor: z.string(),
  kind: z.enum(DEVICE_KINDS),
  dispenser_type: z.number().int().nullable(),
  program_id: z.number().int().nullable(),
  patient: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  verified: z.boolean(),
  connected: z.boolean(),
  /** Seen within the last 30 minutes (DESIGN: offline after max(30 min, 2× the heartbeat interval)). */
  online: z.boolean(),
  last_seen_at: z.string().nullable(),
  last_event_type: z.string().nullable(),
  battery: z.number().int().nullable(),
  pods_loaded: z.number().int().nullable(),
  firmware: z.string().nullable(),
  provisioned_at: z.string().nullable(),
});
export type Device = z.infer<typeof device>;

export const dispenserDetail = device.extend({
  subscribed: z.boolean(),
  recent_events: z.array(deviceEvent),
  recent_commands: z.array(deviceCommand),
});
export type DispenserDetail = z.infer<typeof dispenserDetail>;

const dispenserType = z.union([z.literal(1), z.literal(2), z.literal('1'), z.literal('2')]).transform(Number);

export const dispenserMessageBody = z.object({
  dispenserType,
  /** Type 1: a command line ("status", "dispense 2"); type 2: `{ command, arg }`. */
  data: z.union([
    line().trim().min(1, 'Enter a command.').max(200),
    z.object({
      command: line().trim().min(1, 'Enter a command.').max(64),
      arg: z.union([line().max(200), z.number(), z.boolean(), z.null()]).optional(),
    }),
  ]),
});

export const commandResult = z.object({
  message: z.string(),
  command: deviceCommand,
});

/**
 * Where a newly registered device signs in (docs/devices.md): the MQTT broker's address, its user name
 * (the serial) and its topics. `host` is null when the broker listens on every address: the console then
 * names the host it was reached at. `broker` is null when this CareDeck runs no broker.
 */
export const deviceConnection = z.object({
  broker: z
    .object({
      kind: z.enum(['embedded', 'external']),
      host: z.string().nullable(),
      port: z.number().int().nullable(),
    })
    .nullable(),
  username: z.string(),
  topics: z.object({
    events: z.string(),
    replies: z.string(),
    commands: z.string(),
    rejections: z.string(),
    /** Presence: `online` retained after connecting, `offline` retained as the Last Will (ADR 049). */
    status: z.string(),
  }),
});
export type DeviceConnection = z.infer<typeof deviceConnection>;

/** A registration's answer: the device, its MQTT secret (shown this once; only its hash is kept) and where it signs in. */
export const deviceRegistered = z.object({
  message: z.string(),
  data: device,
  secret: z.string(),
  connection: deviceConnection,
});
export type DeviceRegistered = z.infer<typeof deviceRegistered>;

/**
 * A replaced secret (ADR 051): the registration's answer with the new secret (shown this once), and how many
 * connections signed in with the old one the embedded broker closed. `disconnected` is null when CareDeck
 * cannot see the connections: behind an external broker (which signs devices in itself) or with no broker.
 */
export const deviceSecretReplaced = deviceRegistered.extend({
  disconnected: z.number().int().nullable(),
});
export type DeviceSecretReplaced = z.infer<typeof deviceSecretReplaced>;

const tags = ['devices'] as const;
const byId = z.object({ id: idParam });

/** 02 §7 "Dispensers, devices and measurements": the fleet, its control and its provisioning. */
export const devicesContract = {
  dispenser: defineRoute({
    method: 'GET',
    path: '/api/v1/dispensers/:id',
    summary: 'A dispenser with its state, last events and commands',
    tags,
    params: byId,
    responses: { 200: dispenserDetail },
  }),
  subscribe: defineRoute({
    method: 'POST',
    path: '/api/v1/dispensers/:id/subscribe',
    summary: "Follow the dispenser's live events (socket event dispenser.events)",
    tags,
    params: byId,
    body: z.object({ dispenserType }),
    responses: { 200: z.object({ message: z.string(), subscribed: z.boolean() }) },
  }),
  unsubscribe: defineRoute({
    method: 'POST',
    path: '/api/v1/dispensers/:id/unsubscribe',
    summary: 'Stop following the dispenser',
    tags,
    params: byId,
    body: z.object({ dispenserType }),
    responses: { 200: z.object({ message: z.string(), subscribed: z.boolean() }) },
  }),
  message: defineRoute({
    method: 'POST',
    path: '/api/v1/dispensers/:id/message',
    summary:
      'Send a command to the dispenser and wait for its reply (409 when it is not connected: nothing sent; 504 with the command when a connected dispenser does not answer in time, ADR 060)',
    tags,
    params: byId,
    body: dispenserMessageBody,
    responses: { 200: commandResult, 504: commandResult },
  }),
  patientDispenser: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/:id/dispenser',
    summary: "The patient's dispenser",
    tags,
    params: z.object({ programId: idParam, id: idParam }),
    responses: { 200: device },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/devices',
    summary: 'Devices of the programs the caller sees (controllers: the whole fleet)',
    tags,
    query: deviceListQuery,
    responses: { 200: paged(device) },
  }),
  deviceList: defineRoute({
    method: 'GET',
    path: '/api/v1/device_list',
    summary: 'The same list as GET /devices (the name older clients call)',
    tags,
    query: deviceListQuery,
    responses: { 200: paged(device) },
  }),
  provision: defineRoute({
    method: 'POST',
    path: '/api/v1/vendors/:vendor/provision',
    summary: "Claim a vendor's device into a program; answers its MQTT secret once",
    tags,
    params: z.object({ vendor: line().max(40) }),
    body: z.object({
      device_id: line().trim().min(1).max(DEVICE_SERIAL_MAX),
      program_id: bodyId.optional(),
      patient_id: bodyId.nullable().optional(),
    }),
    responses: { 200: deviceRegistered },
  }),
  medesto: defineRoute({
    method: 'POST',
    path: '/api/v1/devices/medesto',
    summary: 'Register a Medesto dispenser (409 when the serial exists)',
    tags,
    body: z.object({
      serial,
      dispenser_type: z.union([z.literal(1), z.literal(2)]).default(1),
      program_id: bodyId.optional(),
      patient_id: bodyId.nullable().optional(),
    }),
    responses: { 201: deviceRegistered },
  }),
  replaceSecret: defineRoute({
    method: 'POST',
    path: '/api/v1/devices/:id/secret',
    summary:
      "Give a device a new MQTT secret (lost or leaked): the old one stops working, the device's connections are closed; answers the new secret once",
    tags,
    params: byId,
    responses: { 200: deviceSecretReplaced },
  }),
  inhalers: defineRoute({
    method: 'GET',
    path: '/api/v1/inhalers',
    summary: 'Smart inhalers of the programs the caller sees',
    tags,
    query: z.object({ program_id: idParam.optional(), ...deviceListPage }),
    responses: { 200: paged(device) },
  }),
  createInhaler: defineRoute({
    method: 'POST',
    path: '/api/v1/inhalers',
    summary: 'Register a smart inhaler (serial, verified)',
    tags,
    body: z.object({
      serial,
      verified: z.boolean().default(false),
      program_id: bodyId.optional(),
      patient_id: bodyId.nullable().optional(),
    }),
    responses: { 201: deviceRegistered },
  }),
  gateway: defineRoute({
    method: 'GET',
    path: '/api/v1/devices/gateway',
    summary:
      "This process's device gateway: broker, events received, stored, duplicates and refused (controllers)",
    tags,
    responses: {
      200: z.object({
        broker: z.enum(['embedded', 'external', 'off']),
        port: z.number().int().nullable(),
        submitted: z.number().int(),
        stored: z.number().int(),
        duplicates: z.number().int(),
        batches: z.number().int(),
        failed_batches: z.number().int(),
        connections: z.number().int(),
        auth_failures: z.number().int(),
        malformed: z.number().int(),
        forbidden: z.number().int(),
        unknown_devices: z.number().int(),
        /** Behind an external broker: status messages (presence) of serials CareDeck does not know. */
        unknown_statuses: z.number().int(),
        started_at: z.string(),
      }),
    },
  }),
  integrations: defineRoute({
    method: 'GET',
    path: '/api/v1/integrations',
    summary: 'Device integrations: how each vendor reaches CareDeck and how many of its devices are in use',
    tags,
    responses: {
      200: z.object({
        data: z.array(
          z.object({
            vendor: z.string(),
            name: z.string(),
            kinds: z.array(z.enum(DEVICE_KINDS)),
            channel: z.enum(['mqtt', 'webhook']),
            devices: z.number().int(),
          }),
        ),
      }),
    },
  }),
};

export const WEBHOOK_MESSAGES = {
  signature: 'The signature is missing or does not match.',
  stale: 'The signature is too old or from the future (5 minutes at most).',
  unknownVendor: 'No webhook is configured for this vendor.',
} as const;

/** Webhook deliveries older or newer than this are refused (replay protection with the delivery id). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** The header a vendor signs a delivery with: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-caredeck-signature';

export const webhookBody = z.object({
  /** The vendor's id of this delivery: a replay of the same id is answered without being processed again. */
  id: line().trim().min(1).max(100),
  events: z
    .array(z.record(z.string(), z.unknown()).and(z.object({ device: line().trim().min(1).max(64) })))
    .min(1)
    .max(500),
});

export const webhooksContract = {
  deliver: defineRoute({
    method: 'POST',
    path: '/api/v1/webhooks/:vendor',
    summary:
      "A vendor cloud's device events (measurements, inhaler actuations), HMAC-signed; answered 200 only once every accepted event is stored",
    tags: ['devices'],
    params: z.object({ vendor: line().max(40) }),
    body: webhookBody,
    responses: {
      200: z.object({
        accepted: z.number().int(),
        duplicate: z.boolean(),
        rejected: z.array(z.object({ index: z.number().int(), reason: z.string() })),
      }),
    },
  }),
};

export const SCHEDULE_MESSAGES = {
  created: 'Device Schedule Created',
  failed: 'Unable to create, try again later',
  noDispenser: 'No dispenser to schedule: the patient has none.',
  noPatients: 'No patient of this cohort has a dispenser.',
} as const;

const timeOfDay = line().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time of day as HH:MM (24-hour).');

export const deviceScheduleBody = z.object({
  /** Times the dispenser unlocks a dose, in the patient's time zone. */
  times: z
    .array(timeOfDay)
    .min(1, 'Give at least one time of day.')
    .max(12)
    .refine((t) => new Set(t).size === t.length, 'Each time of day may appear once.'),
  /** Days of the week (0 = Sunday); every day when absent. */
  weekdays: z
    .array(z.number().int().min(0).max(6))
    .min(1)
    .max(7)
    .refine((d) => new Set(d).size === d.length, 'Each day may appear once.')
    .optional(),
  regimen_id: bodyId.nullable().optional(),
});
export type DeviceScheduleBody = z.input<typeof deviceScheduleBody>;

/** Where a schedule or goal stored for a device is on its way to it. */
export const DEVICE_PROGRAMMING_STATUSES = ['pending', 'sent', 'superseded'] as const;
export type DeviceProgrammingStatus = (typeof DEVICE_PROGRAMMING_STATUSES)[number];

export const deviceSchedule = z.object({
  id: z.number().int(),
  patient_id: z.number().int(),
  device_id: z.number().int(),
  group_id: z.number().int().nullable(),
  regimen_id: z.number().int().nullable(),
  times: z.array(z.string()),
  weekdays: z.array(z.number().int()),
  /**
   * pending: stored, waiting for the dispenser to connect; sent: handed to the broker for the connected
   * dispenser (at `sent_at`); superseded: replaced by a newer schedule for the same dispenser before it
   * could be sent, never sent (docs/devices.md, ADR 050).
   */
  status: z.enum(DEVICE_PROGRAMMING_STATUSES),
  /** When it was sent; null while pending, when superseded, and for schedules sent before this was kept. */
  sent_at: z.string().nullable(),
  created_at: z.string(),
});
export type DeviceSchedule = z.infer<typeof deviceSchedule>;

export const NFC_ACTIVITY_TYPES = ['scan', 'dispense', 'insert', 'remove', 'error'] as const;
export const NFC_MESSAGES = {
  unknownBarcode: 'Unknown barcode',
  recorded: 'Data Stored',
} as const;

export const DEVICE_GOAL_TYPES = ['steps', 'active_minutes', 'sleep', 'weight', 'adherence'] as const;

/**
 * A goal: steps, active minutes, sleep minutes and adherence (percent) are counted, so whole numbers; a target
 * weight may have a decimal (72.5 kg), as the scale reports it (issue 28 item 4: 1.5 steps answered 201).
 */
export const deviceGoalBody = z
  .object({
    device_id: bodyId,
    type: z.enum(DEVICE_GOAL_TYPES),
    target: z.number().positive().max(1_000_000),
  })
  .superRefine((b, ctx) => {
    if (b.type !== 'weight' && !Number.isInteger(b.target))
      ctx.addIssue({ code: 'custom', path: ['target'], message: 'The target must be a whole number.' });
  });

const idBody = z.object({ id: idParam });

/** Device schedules, the NFC channel, device goals and device regimens (02 §7). */
export const deviceChannelContract = {
  createPatientSchedule: defineRoute({
    method: 'POST',
    path: '/api/v1/users/:id/schedules',
    summary: "Program the patient's dispenser with dose times ('Device Schedule Created')",
    tags,
    params: idBody,
    body: deviceScheduleBody,
    responses: { 201: z.object({ message: z.string(), data: z.array(deviceSchedule) }) },
  }),
  patientSchedules: defineRoute({
    method: 'GET',
    path: '/api/v1/users/:id/schedules',
    summary: "The device schedules of the patient's dispensers, newest first",
    tags,
    params: idBody,
    responses: { 200: z.object({ data: z.array(deviceSchedule) }) },
  }),
  createGroupSchedule: defineRoute({
    method: 'POST',
    path: '/api/v1/groups/:id/schedules',
    summary: 'Program the dispensers of every patient of the cohort with the same dose times',
    tags,
    params: idBody,
    body: deviceScheduleBody,
    responses: { 201: z.object({ message: z.string(), data: z.array(deviceSchedule) }) },
  }),
  groupSchedules: defineRoute({
    method: 'GET',
    path: '/api/v1/groups/:id/schedules',
    summary: 'The device schedules given to the cohort',
    tags,
    params: idBody,
    responses: { 200: z.object({ data: z.array(deviceSchedule) }) },
  }),
  nfcProgram: defineRoute({
    method: 'POST',
    path: '/api/v1/program',
    summary: 'NFC channel: what a scanned pod belongs to (the device signs in with HTTP Basic)',
    tags,
    body: z.object({ barcode: line().trim().min(1).max(64) }),
    responses: {
      200: z.object({
        program: z.object({ id: z.number().int(), name: z.string() }),
        pod: z.object({
          id: z.number().int(),
          barcode: z.string(),
          regimen_id: z.number().int(),
          regimen_name: z.string(),
          servings_remaining: z.number().int(),
        }),
      }),
    },
  }),
  nfcActivity: defineRoute({
    method: 'POST',
    path: '/api/v1/pods/barcode/activity',
    summary:
      "NFC channel: a pod scanned, dispensed, inserted, removed or an error at a stage ('Data Stored')",
    tags,
    body: z.object({
      barcode: line().trim().min(1).max(64),
      activity_type: z.enum(NFC_ACTIVITY_TYPES),
      error_stage: line().trim().max(64).nullable().optional(),
      at: line().max(40).optional(),
      seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    }),
    responses: { 201: z.object({ message: z.string(), stored: z.boolean() }) },
  }),
  goals: defineRoute({
    method: 'POST',
    path: '/api/v1/goals',
    summary:
      "Set a goal on a patient's device (steps, sleep, weight …); sent to the device now or when it next connects",
    tags,
    body: deviceGoalBody,
    responses: {
      201: z.object({
        message: z.string(),
        data: z.object({
          id: z.number().int(),
          device_id: z.number().int(),
          type: z.string(),
          target: z.number(),
          status: z.enum(DEVICE_PROGRAMMING_STATUSES),
          sent_at: z.string().nullable(),
        }),
      }),
    },
  }),
  deviceRegimen: defineRoute({
    method: 'POST',
    path: '/api/v1/regimens',
    summary: "Run a regimen of the patient on the patient's device (regiment_id)",
    tags,
    body: z.object({ device_id: bodyId, regiment_id: bodyId }),
    responses: { 200: z.object({ message: z.string(), data: device }) },
  }),
};
