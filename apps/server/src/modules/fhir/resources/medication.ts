import { type SQL, sql } from 'drizzle-orm';
import { allOf, anyOf, LAST_UPDATED_PARAM, lastUpdatedConditions } from '../fhir.queries';
import { cursorIds, invalidCursor, numericId, parseDateBound, referenceId } from '../search';
import { compact, type FhirResource, instant, paged, type ResourceDefinition, text } from './resource';

type RegimenRow = {
  id: number;
  patient_id: number;
  program_id: number;
  name: string;
  repeat: 'daily' | 'weekly' | 'monthly' | 'as_needed';
  interval: number;
  times: string[];
  scheduled_at: Date;
  end_at: Date | null;
  status: 'active' | 'completed';
  created_by: number | null;
  created_at: Date;
};

const PERIOD_UNIT = { daily: 'd', weekly: 'wk', monthly: 'mo' } as const;

/**
 * A regimen as a MedicationRequest (an order, with its schedule as the dosage's timing: the times of day in
 * the patient's zone, every `interval` days, weeks or months, from `scheduled_at` to `end_at`). The medication
 * is the regimen's name as text: CareDeck does not code regimens (RxNorm) yet.
 */
export function medicationRequestResource(r: RegimenRow): FhirResource {
  const bounds = compact({ start: instant(r.scheduled_at), end: r.end_at ? instant(r.end_at) : undefined });
  const times = r.times.filter((t) => /^[0-2][0-9]:[0-5][0-9]$/.test(t)).map((t) => `${t}:00`);
  const repeat = r.repeat === 'as_needed' ? null : r.repeat;
  return compact({
    resourceType: 'MedicationRequest',
    id: String(r.id),
    meta: { lastUpdated: instant(r.created_at) },
    status: r.status,
    intent: 'order',
    medicationCodeableConcept: { text: text(r.name) ?? 'Medication' },
    subject: { reference: `Patient/${r.patient_id}` },
    authoredOn: instant(r.created_at),
    requester: r.created_by ? { reference: `Practitioner/${r.created_by}` } : undefined,
    dosageInstruction: [
      compact({
        timing: {
          repeat: compact({
            boundsPeriod: bounds,
            ...(repeat === null
              ? {}
              : {
                  frequency: Math.max(times.length, 1),
                  period: r.interval,
                  periodUnit: PERIOD_UNIT[repeat],
                  timeOfDay: times.length > 0 ? times : undefined,
                }),
          }),
        },
        asNeededBoolean: repeat === null,
      }),
    ],
  });
}

type UsageRow = {
  id: number;
  patient_id: number;
  program_id: number;
  regimen_id: number;
  regimen_name: string;
  taken_at: Date;
  servings: number;
  kind: 'taken' | 'skipped';
  device_id: number | null;
  at_us: string;
};

/**
 * A dose event as a MedicationAdministration: `completed` when taken, `not-done` when skipped. Missed doses are
 * not events (the adherence engine derives them from the schedule) and are not served yet.
 */
export function medicationAdministrationResource(r: UsageRow): FhirResource {
  return compact({
    resourceType: 'MedicationAdministration',
    id: String(r.id),
    status: r.kind === 'taken' ? 'completed' : 'not-done',
    statusReason: r.kind === 'skipped' ? [{ text: 'Skipped' }] : undefined,
    medicationCodeableConcept: { text: text(r.regimen_name) ?? 'Medication' },
    subject: { reference: `Patient/${r.patient_id}` },
    effectiveDateTime: instant(r.taken_at),
    device: r.device_id ? [{ reference: `Device/${r.device_id}` }] : undefined,
    request: { reference: `MedicationRequest/${r.regimen_id}` },
    dosage: { dose: { value: r.servings, unit: r.servings === 1 ? 'serving' : 'servings' } },
  });
}

function idsCondition(column: SQL, values: string[]): SQL {
  return anyOf(values.map((v) => numericId(v)).map((id) => (id ? sql`${column} = ${id}` : sql`false`)));
}

function patientsCondition(column: SQL, values: string[]): SQL {
  const ids = values.map((v) => numericId(referenceId('Patient', v) ?? '')).filter((id) => id !== null);
  return ids.length > 0 ? sql`${column} = ANY(${`{${ids.join(',')}}`}::bigint[])` : sql`false`;
}

const needsPatient = (type: string) => (search: { params: Map<string, unknown> }) =>
  search.params.has('patient') || search.params.has('_id')
    ? null
    : `A ${type} search names a patient (patient=…) or ids (_id=…).`;

export const medicationRequestDefinition: ResourceDefinition = {
  type: 'MedicationRequest',
  profiles: [],
  params: [
    { name: '_id', type: 'token', documentation: 'The regimen id (comma-separated for several).' },
    { name: 'patient', type: 'reference', documentation: 'The patient. A search names `patient` or `_id`.' },
    LAST_UPDATED_PARAM,
  ],
  refuse: needsPatient('MedicationRequest'),
  async page(db, scope, search) {
    const conditions: SQL[] = [];
    for (const values of search.params.get('_id') ?? []) conditions.push(idsCondition(sql`r.id`, values));
    for (const values of search.params.get('patient') ?? [])
      conditions.push(patientsCondition(sql`r.patient_id`, values));
    conditions.push(...lastUpdatedConditions(sql`r.created_at`, search.params));
    const after = cursorIds(search.cursor, 1);
    if (after) conditions.push(sql`r.id > ${after[0]}`);
    const res = await db.execute<RegimenRow>(sql`
      SELECT r.id, r.patient_id, p.program_id, r.name, r.repeat, r.interval, r.times, r.scheduled_at, r.end_at,
        r.status, r.created_by, r.created_at
      FROM regimens r
      JOIN patients p ON p.id = r.patient_id AND p.program_id IN ${scope.programs}
      WHERE ${allOf(conditions)}
      ORDER BY r.id
      LIMIT ${search.count + 1}`);
    const { rows, next } = paged(res.rows, search.count, (r) => [r.id]);
    return {
      items: rows.map((r) => ({
        resource: medicationRequestResource(r),
        patientId: r.patient_id,
        programId: r.program_id,
      })),
      next,
    };
  },
};

function effectiveCondition(value: string): SQL {
  const { op, start, end } = parseDateBound('effective-time', value);
  const s = start.toISOString();
  const e = end.toISOString();
  if (op === 'eq') return sql`(u.taken_at >= ${s}::timestamptz AND u.taken_at < ${e}::timestamptz)`;
  if (op === 'ge') return sql`u.taken_at >= ${s}::timestamptz`;
  if (op === 'gt') return sql`u.taken_at >= ${e}::timestamptz`;
  if (op === 'le') return sql`u.taken_at < ${e}::timestamptz`;
  return sql`u.taken_at < ${s}::timestamptz`;
}

export const medicationAdministrationDefinition: ResourceDefinition = {
  type: 'MedicationAdministration',
  profiles: [],
  params: [
    { name: '_id', type: 'token', documentation: 'The dose event id (comma-separated for several).' },
    { name: 'patient', type: 'reference', documentation: 'The patient. A search names `patient` or `_id`.' },
    {
      name: 'effective-time',
      type: 'date',
      documentation: 'When the dose was taken or skipped, with the prefixes eq, ge, gt, le, lt.',
    },
  ],
  refuse: needsPatient('MedicationAdministration'),
  async page(db, scope, search) {
    const conditions: SQL[] = [];
    for (const values of search.params.get('_id') ?? []) conditions.push(idsCondition(sql`u.id`, values));
    for (const values of search.params.get('patient') ?? [])
      conditions.push(patientsCondition(sql`u.patient_id`, values));
    for (const values of search.params.get('effective-time') ?? [])
      conditions.push(anyOf(values.map(effectiveCondition)));
    if (search.cursor) {
      const [at, id] = search.cursor;
      if (search.cursor.length !== 2 || typeof at !== 'string' || !/^-?[0-9]{1,20}$/.test(at))
        throw invalidCursor();
      const afterId = cursorIds([id], 1)![0]!;
      const t = sql`(timestamptz 'epoch' + ${at}::bigint * interval '1 microsecond')`;
      conditions.push(sql`u.taken_at >= ${t} AND (u.taken_at > ${t} OR u.id > ${afterId})`);
    }
    const res = await db.execute<UsageRow>(sql`
      SELECT u.id, u.patient_id, p.program_id, u.regimen_id, r.name AS regimen_name, u.taken_at, u.servings, u.kind,
        e.device_id, (extract(epoch FROM u.taken_at) * 1000000)::bigint::text AS at_us
      FROM medication_usages u
      JOIN patients p ON p.id = u.patient_id AND p.program_id IN ${scope.programs}
      JOIN regimens r ON r.id = u.regimen_id
      LEFT JOIN device_events e ON e.id = u.device_event_id
      WHERE ${allOf(conditions)}
      ORDER BY u.taken_at, u.id
      LIMIT ${search.count + 1}`);
    const { rows, next } = paged(res.rows, search.count, (r) => [r.at_us, r.id]);
    return {
      items: rows.map((r) => ({
        resource: medicationAdministrationResource(r),
        patientId: r.patient_id,
        programId: r.program_id,
      })),
      next,
    };
  },
};
