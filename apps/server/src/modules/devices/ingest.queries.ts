import type pg from 'pg';

/** One event of a batch, already parsed and attributed to its device. */
export type BatchEvent = {
  deviceId: number;
  seq: number;
  type: string;
  at: number;
  payload: Record<string, unknown>;
};

export type BatchResult = {
  /** Events new to the log (the rest were resends). */
  stored: number;
  /** Patients whose doses or measurements changed, with their program (for live updates). */
  patients: { program_id: number; patient_id: number; kinds: string[] }[];
  /** Staff following a dispenser of the batch, with the device's new events. */
  subscribers: { admin_id: number; device_id: number; events: { seq: number; type: string; at: string }[] }[];
};

/**
 * The whole batch in one statement (DESIGN §5): the event log keyed by (device, seq) keeps the first copy
 * of a resend; only new events become doses (a pod's barcode, else the device's active regimen), skips,
 * measurements and pod servings; the devices' last-seen state moves forward only, so a late event never
 * overwrites a newer one. Data-modifying CTEs all run on one snapshot inside the caller's transaction.
 */
const INGEST_BATCH = `
WITH input AS (
  SELECT device_id, seq, type, to_timestamp(at_ms / 1000) AS occurred_at, payload
  FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::float8[], $5::jsonb[])
    AS e(device_id, seq, type, at_ms, payload)
),
ins AS (
  INSERT INTO device_events (device_id, seq, program_id, patient_id, type, occurred_at, payload)
  SELECT i.device_id, i.seq, d.program_id, d.patient_id, i.type, i.occurred_at, i.payload
  FROM input i JOIN devices d ON d.id = i.device_id
  ON CONFLICT (device_id, seq) DO NOTHING
  RETURNING id, device_id, program_id, patient_id, type, occurred_at, payload, seq
),
dose_in AS (
  SELECT ins.id, ins.patient_id, ins.type, ins.occurred_at, ins.payload, dv.kind AS device_kind,
         p.id AS pod_id, coalesce(p.regimen_id, r.id) AS regimen_id
  FROM ins
  JOIN devices dv ON dv.id = ins.device_id
  LEFT JOIN pods p ON p.barcode = ins.payload->>'barcode' AND p.patient_id = ins.patient_id
  LEFT JOIN LATERAL (
    SELECT g.id FROM regimens g
    WHERE g.patient_id = ins.patient_id AND g.status = 'active'
      AND (g.id = (ins.payload->>'regimen_id')::bigint
           OR (ins.payload->>'regimen_id' IS NULL AND g.device_serial = dv.serial))
    ORDER BY g.id LIMIT 1
  ) r ON p.id IS NULL
  WHERE ins.type IN ('dose_taken', 'dose_skipped', 'actuation') AND ins.patient_id IS NOT NULL
),
doses AS (
  INSERT INTO medication_usages (patient_id, regimen_id, pod_id, taken_at, servings, source, kind, device_event_id)
  SELECT patient_id, regimen_id, pod_id, occurred_at,
         coalesce((payload->>'servings')::int, (payload->>'puffs')::int, 1),
         CASE device_kind WHEN 'inhaler' THEN 'inhaler' WHEN 'nfc_reader' THEN 'nfc' ELSE 'dispenser' END,
         CASE type WHEN 'dose_skipped' THEN 'skipped' ELSE 'taken' END,
         id
  FROM dose_in WHERE regimen_id IS NOT NULL
  ON CONFLICT DO NOTHING
  RETURNING patient_id, pod_id, servings, kind
),
pod_use AS (
  UPDATE pods SET servings_remaining = greatest(0, pods.servings_remaining - u.n)
  FROM (SELECT pod_id, sum(servings)::int AS n FROM doses
        WHERE pod_id IS NOT NULL AND kind = 'taken' GROUP BY pod_id) u
  WHERE pods.id = u.pod_id
  RETURNING pods.id
),
meas AS (
  INSERT INTO measurements (patient_id, program_id, device_id, device_event_id, type, value, unit, measured_at)
  SELECT ins.patient_id, ins.program_id, ins.device_id, ins.id, m.type, m.value, m.unit, ins.occurred_at
  FROM ins CROSS JOIN LATERAL jsonb_to_recordset(ins.payload->'m') AS m(type text, value float8, unit text)
  WHERE ins.type = 'measurement' AND ins.patient_id IS NOT NULL
  RETURNING patient_id
),
latest AS (
  SELECT DISTINCT ON (device_id) device_id, occurred_at, type,
         coalesce((payload->>'battery')::smallint, NULL) AS battery,
         coalesce((payload->>'pods')::smallint, (payload->>'remaining')::smallint) AS pods,
         payload->>'firmware' AS firmware
  FROM input ORDER BY device_id, occurred_at DESC
),
dev AS (
  UPDATE devices d SET
    last_seen_at = l.occurred_at,
    last_event_type = l.type,
    battery = coalesce(l.battery, d.battery),
    pods_loaded = coalesce(l.pods, d.pods_loaded),
    firmware = coalesce(l.firmware, d.firmware)
  FROM latest l
  WHERE d.id = l.device_id AND (d.last_seen_at IS NULL OR d.last_seen_at <= l.occurred_at)
  RETURNING d.id
)
SELECT
  (SELECT count(*) FROM ins)::int AS stored,
  (SELECT count(*) FROM pod_use)::int AS pods_used,
  (SELECT count(*) FROM dev)::int AS devices_seen,
  coalesce((
    SELECT json_agg(json_build_object('program_id', x.program_id, 'patient_id', x.patient_id, 'kinds', x.kinds))
    FROM (
      SELECT program_id, patient_id, array_agg(DISTINCT CASE WHEN type = 'measurement' THEN 'measurements' ELSE 'doses' END) AS kinds
      FROM ins
      WHERE patient_id IS NOT NULL AND type IN ('dose_taken', 'dose_skipped', 'actuation', 'measurement')
      GROUP BY program_id, patient_id
    ) x
  ), '[]') AS patients,
  coalesce((
    SELECT json_agg(json_build_object('admin_id', s.admin_id, 'device_id', s.device_id, 'events', e.events))
    FROM dispenser_subscriptions s
    JOIN (
      SELECT device_id, json_agg(json_build_object('seq', seq, 'type', type, 'at', occurred_at) ORDER BY occurred_at) AS events
      FROM ins GROUP BY device_id
    ) e ON e.device_id = s.device_id
  ), '[]') AS subscribers`;

/** Writes one batch; the caller wraps it in a transaction (or relies on the statement's own). */
export async function ingestBatch(
  client: pg.Pool | pg.PoolClient,
  events: BatchEvent[],
): Promise<BatchResult> {
  const n = events.length;
  const deviceIds = new Array<number>(n);
  const seqs = new Array<number>(n);
  const types = new Array<string>(n);
  const ats = new Array<number>(n);
  const payloads = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const e = events[i]!;
    deviceIds[i] = e.deviceId;
    seqs[i] = e.seq;
    types[i] = e.type;
    ats[i] = e.at;
    payloads[i] = JSON.stringify(e.payload);
  }
  const res = await client.query<BatchResult>({
    name: 'devices_ingest_batch',
    text: INGEST_BATCH,
    values: [deviceIds, seqs, types, ats, payloads],
  });
  return res.rows[0]!;
}

export type DeviceCredential = { id: number; serial: string; secret_hash: string | null; kind: string };

export async function deviceCredential(pool: pg.Pool, serial: string): Promise<DeviceCredential | null> {
  const res = await pool.query<DeviceCredential>(
    'SELECT id, serial, secret_hash, kind FROM devices WHERE serial = $1',
    [serial],
  );
  return res.rows[0] ?? null;
}

export async function setConnected(pool: pg.Pool, deviceId: number, connected: boolean): Promise<void> {
  await pool.query('UPDATE devices SET connected = $2 WHERE id = $1', [deviceId, connected]);
}

/** At the start of an embedded broker nobody is connected yet (a crash leaves flags behind). */
export async function resetConnections(pool: pg.Pool): Promise<void> {
  await pool.query('UPDATE devices SET connected = false WHERE connected');
}

/**
 * Connection states reported on `devices/{serial}/status` behind an external broker (ADR 049), one row per
 * serial (the latest of the batch). A row is written only when its state changes (or on its first status),
 * so the retained statuses every gateway receives at start cost nothing when nothing changed;
 * `presence_at` is then when the current state began. Unknown serials are counted by the caller.
 */
const APPLY_PRESENCE = `
WITH s AS (SELECT * FROM unnest($1::text[], $2::boolean[]) AS s(serial, connected)),
upd AS (
  UPDATE devices d SET connected = s.connected, presence_at = now()
  FROM s
  WHERE d.serial = s.serial AND (d.connected IS DISTINCT FROM s.connected OR d.presence_at IS NULL)
  RETURNING d.id, d.connected
)
SELECT (SELECT count(*) FROM upd)::int AS changed,
       (SELECT count(*) FROM s WHERE NOT EXISTS (SELECT 1 FROM devices d WHERE d.serial = s.serial))::int AS unknown,
       (SELECT coalesce(array_agg(id), '{}') FROM upd WHERE connected)::text[] AS online`;

/**
 * Applies the states; `online` are the devices this statement turned connected (the node whose write
 * changed the row: the others' same write is a no-op), which are then owed their pending programming.
 */
export async function applyPresence(
  pool: pg.Pool,
  states: { serial: string; connected: boolean }[],
): Promise<{ changed: number; unknown: number; online: number[] }> {
  const res = await pool.query<{ changed: number; unknown: number; online: string[] }>({
    name: 'devices_apply_presence',
    text: APPLY_PRESENCE,
    values: [states.map((s) => s.serial), states.map((s) => s.connected)],
  });
  const row = res.rows[0]!;
  return { changed: row.changed, unknown: row.unknown, online: row.online.map(Number) };
}
