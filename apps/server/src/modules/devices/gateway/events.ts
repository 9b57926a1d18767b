/**
 * The device event protocol (docs/devices.md): one JSON object per MQTT message on
 * `devices/{serial}/events`. Parsed by hand, not by a schema library: at tens of thousands of events a
 * second the parser is the gateway's hottest code. Only the known fields of each type are kept, so a
 * device cannot grow the event log with arbitrary data.
 */

export const DEVICE_EVENT_TYPES = [
  'dose_taken',
  'dose_skipped',
  'dose_missed',
  'pod_inserted',
  'pod_removed',
  'door_opened',
  'low_pods',
  'battery',
  'heartbeat',
  'actuation',
  'measurement',
] as const;
export type DeviceEventType = (typeof DEVICE_EVENT_TYPES)[number];
const TYPES = new Set<string>(DEVICE_EVENT_TYPES);

/** Measurement types with their one unit (01 §3 Measurements; systolic and oxygen are the default views). */
export const MEASUREMENT_UNITS = {
  systolic: 'mmHg',
  diastolic: 'mmHg',
  pulse: 'bpm',
  oxygen: '%',
  weight: 'kg',
  glucose: 'mg/dL',
  temperature: '°C',
  steps: 'steps',
  sleep: 'min',
  active_minutes: 'min',
} as const;
export type MeasurementType = keyof typeof MEASUREMENT_UNITS;
export const MEASUREMENT_TYPES = Object.keys(MEASUREMENT_UNITS) as MeasurementType[];

/** Plausible ranges: a reading outside is a device fault, not a patient's value. */
const MEASUREMENT_RANGES: Record<MeasurementType, [number, number]> = {
  systolic: [40, 300],
  diastolic: [20, 200],
  pulse: [20, 250],
  oxygen: [50, 100],
  weight: [1, 500],
  glucose: [10, 1000],
  temperature: [25, 45],
  steps: [0, 200_000],
  sleep: [0, 1440],
  active_minutes: [0, 1440],
};

export const MAX_EVENT_BYTES = 4096;
/** Devices buffer offline for weeks; older events are refused as a clock fault. */
const MAX_AGE_MS = 400 * 24 * 3600_000;
/** Device clocks drift; an event further in the future than this is refused. */
const MAX_FUTURE_MS = 5 * 60_000;

export type DeviceEvent = {
  seq: number;
  type: DeviceEventType;
  at: number;
  /** The normalised fields of the type, stored as the event's payload. */
  payload: Record<string, unknown>;
};

export type ParseResult = { ok: true; event: DeviceEvent } | { ok: false; reason: string };

const fail = (reason: string): ParseResult => ({ ok: false, reason });

function intIn(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

function shortText(v: unknown, max = 64): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= max && /^[\x21-\x7e]+$/.test(v);
}

function instant(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.round(v);
  if (typeof v === 'string' && v.length <= 40 && /^\d{4}-\d{2}-\d{2}T/.test(v)) {
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}

/** Parses one message; `now` bounds the event's time (injected for tests). */
export function parseDeviceEvent(raw: Buffer | string, now = Date.now()): ParseResult {
  if (raw.length > MAX_EVENT_BYTES) return fail('too_large');
  let body: unknown;
  try {
    body = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
  } catch {
    return fail('not_json');
  }
  return parseEventObject(body, now);
}

/** How an optional field of an event is checked. */
type FieldRule = 'text' | 'firmware' | 'slot' | 'id' | 'servings' | 'percent' | 'rssi' | 'pods' | 'puffs';

function fieldOk(rule: FieldRule, v: unknown): boolean {
  switch (rule) {
    case 'text':
      return shortText(v);
    case 'firmware':
      return shortText(v, 32);
    case 'slot':
    case 'pods':
      return intIn(v, 0, 64);
    case 'id':
      return intIn(v, 1, Number.MAX_SAFE_INTEGER);
    case 'servings':
      return intIn(v, 1, 20);
    case 'percent':
      return intIn(v, 0, 100);
    case 'rssi':
      return intIn(v, -150, 0);
    case 'puffs':
      return intIn(v, 1, 10);
  }
}

const DOSE_FIELDS: [string, FieldRule][] = [
  ['barcode', 'text'],
  ['slot', 'slot'],
  ['regimen_id', 'id'],
  ['servings', 'servings'],
];
/** The optional fields each type keeps (measurement values are checked apart). */
const FIELDS: Record<DeviceEventType, [string, FieldRule][]> = {
  dose_taken: DOSE_FIELDS,
  dose_skipped: DOSE_FIELDS,
  dose_missed: DOSE_FIELDS,
  pod_inserted: [
    ['barcode', 'text'],
    ['slot', 'slot'],
  ],
  pod_removed: [
    ['barcode', 'text'],
    ['slot', 'slot'],
  ],
  door_opened: [],
  low_pods: [['remaining', 'pods']],
  battery: [['battery', 'percent']],
  heartbeat: [
    ['battery', 'percent'],
    ['rssi', 'rssi'],
    ['firmware', 'firmware'],
    ['pods', 'pods'],
  ],
  actuation: [
    ['puffs', 'puffs'],
    ['regimen_id', 'id'],
  ],
  measurement: [],
};

/**
 * Checks one event already parsed from JSON (a webhook delivery carries several). Written without
 * closures or schema objects per call: it runs for every event the gateway receives.
 */
export function parseEventObject(body: unknown, now = Date.now()): ParseResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail('not_an_object');
  const b = body as Record<string, unknown>;
  if (!intIn(b.seq, 0, Number.MAX_SAFE_INTEGER)) return fail('seq');
  if (typeof b.type !== 'string' || !TYPES.has(b.type)) return fail('type');
  const at = instant(b.at);
  if (at === null || at > now + MAX_FUTURE_MS || at < now - MAX_AGE_MS) return fail('at');
  const type = b.type as DeviceEventType;
  const payload: Record<string, unknown> = {};
  // A battery event must say its level.
  if (type === 'battery' && b.battery === undefined) return fail('fields');
  const fields = FIELDS[type];
  for (let i = 0; i < fields.length; i++) {
    const [key, rule] = fields[i]!;
    const v = b[key];
    if (v === undefined || v === null) continue;
    if (!fieldOk(rule, v)) return fail('fields');
    payload[key] = v;
  }
  if (type === 'measurement') {
    const values = b.values;
    if (typeof values !== 'object' || values === null || Array.isArray(values)) return fail('values');
    const m: { type: string; value: number; unit: string }[] = [];
    for (const key in values) {
      if (!Object.hasOwn(values, key)) continue;
      const value = (values as Record<string, unknown>)[key];
      const unit = MEASUREMENT_UNITS[key as MeasurementType];
      const range = MEASUREMENT_RANGES[key as MeasurementType];
      if (!unit || !range) return fail('values');
      if (typeof value !== 'number' || !Number.isFinite(value) || value < range[0] || value > range[1])
        return fail('values');
      m.push({ type: key, value, unit });
    }
    if (m.length === 0) return fail('values');
    payload.m = m;
  }
  return { ok: true, event: { seq: b.seq, type, at, payload } };
}
