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

/** Checks one event already parsed from JSON (a webhook delivery carries several). */
export function parseEventObject(body: unknown, now = Date.now()): ParseResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail('not_an_object');
  const b = body as Record<string, unknown>;
  if (!intIn(b.seq, 0, Number.MAX_SAFE_INTEGER)) return fail('seq');
  if (typeof b.type !== 'string' || !TYPES.has(b.type)) return fail('type');
  const at = instant(b.at);
  if (at === null || at > now + MAX_FUTURE_MS || at < now - MAX_AGE_MS) return fail('at');
  const type = b.type as DeviceEventType;
  const payload: Record<string, unknown> = {};
  const optional = (key: string, ok: (v: unknown) => boolean) => {
    if (b[key] === undefined || b[key] === null) return true;
    if (!ok(b[key])) return false;
    payload[key] = b[key];
    return true;
  };
  const checks: boolean[] = [];
  switch (type) {
    case 'dose_taken':
    case 'dose_skipped':
    case 'dose_missed':
      checks.push(
        optional('barcode', (v) => shortText(v)),
        optional('slot', (v) => intIn(v, 0, 64)),
        optional('regimen_id', (v) => intIn(v, 1, Number.MAX_SAFE_INTEGER)),
        optional('servings', (v) => intIn(v, 1, 20)),
      );
      break;
    case 'pod_inserted':
    case 'pod_removed':
      checks.push(
        optional('barcode', (v) => shortText(v)),
        optional('slot', (v) => intIn(v, 0, 64)),
      );
      break;
    case 'low_pods':
      checks.push(optional('remaining', (v) => intIn(v, 0, 64)));
      break;
    case 'battery':
      checks.push(b.battery !== undefined && optional('battery', (v) => intIn(v, 0, 100)));
      break;
    case 'heartbeat':
      checks.push(
        optional('battery', (v) => intIn(v, 0, 100)),
        optional('rssi', (v) => intIn(v, -150, 0)),
        optional('firmware', (v) => shortText(v, 32)),
        optional('pods', (v) => intIn(v, 0, 64)),
      );
      break;
    case 'actuation':
      checks.push(
        optional('puffs', (v) => intIn(v, 1, 10)),
        optional('regimen_id', (v) => intIn(v, 1, Number.MAX_SAFE_INTEGER)),
      );
      break;
    case 'measurement': {
      const values = b.values;
      if (typeof values !== 'object' || values === null || Array.isArray(values)) return fail('values');
      const m: { type: string; value: number; unit: string }[] = [];
      for (const [key, value] of Object.entries(values)) {
        const unit = MEASUREMENT_UNITS[key as MeasurementType];
        const range = MEASUREMENT_RANGES[key as MeasurementType];
        if (!unit || !range) return fail('values');
        if (typeof value !== 'number' || !Number.isFinite(value) || value < range[0] || value > range[1])
          return fail('values');
        m.push({ type: key, value, unit });
      }
      if (m.length === 0) return fail('values');
      payload.m = m;
      break;
    }
  }
  if (checks.some((ok) => !ok)) return fail('fields');
  return { ok: true, event: { seq: b.seq, type, at, payload } };
}
