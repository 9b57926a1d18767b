import { type SQL, sql } from 'drizzle-orm';
import {
  BP_COMPONENTS,
  CODING_OF_TYPE,
  categoryConcept,
  LOINC,
  MAPPED_TYPES,
  type MeasurementCoding,
  selectionOfCode,
  typesOfCategory,
  UCUM,
} from '../codes';
import { allOf, anyOf, LAST_UPDATED_PARAM, lastUpdatedConditions, textArray } from '../fhir.queries';
import { cursorIds, invalidCursor, numericId, parseDateBound, parseToken, referenceId } from '../search';
import { compact, type FhirResource, instant, paged, type ResourceDefinition } from './resource';

type MeasurementRow = {
  id: number;
  patient_id: number;
  program_id: number;
  device_id: number | null;
  type: string;
  value: number;
  diastolic: number | null;
  measured_at: Date;
  created_at: Date;
  /** The sort key's instant in microseconds since the epoch, exact (a JS Date keeps milliseconds only). */
  at_us: string;
};

const concept = (code: { code: string; display: string }) => ({
  coding: [{ system: LOINC, code: code.code, display: code.display }],
  text: code.display,
});

const quantity = (value: number, coding: MeasurementCoding) => ({
  value,
  unit: coding.unit.display,
  system: UCUM,
  code: coding.unit.code,
});

/**
 * A measurement row as an Observation. The systolic row of a blood-pressure reading carries its diastolic
 * partner (same patient, instant and device event) and becomes the 85354-9 panel; a systolic reading without
 * one is served alone as 8480-6.
 */
export function observationResource(r: MeasurementRow): FhirResource {
  const coding = CODING_OF_TYPE.get(r.type)!;
  const base = {
    resourceType: 'Observation',
    id: String(r.id),
    status: 'final',
    category: [categoryConcept(coding.category)],
    subject: { reference: `Patient/${r.patient_id}` },
    effectiveDateTime: instant(r.measured_at),
    device: r.device_id ? { reference: `Device/${r.device_id}` } : undefined,
  };
  const meta = (profiles: string[]) =>
    compact({ lastUpdated: instant(r.created_at), profile: profiles.length > 0 ? profiles : undefined });
  if (r.type === 'systolic' && r.diastolic === null) {
    return compact({
      ...base,
      meta: meta([]),
      code: concept(BP_COMPONENTS.systolic),
      valueQuantity: quantity(r.value, coding),
    });
  }
  if (r.type === 'systolic') {
    return compact({
      ...base,
      meta: meta(coding.profiles),
      code: concept(coding.codes[0]!),
      component: [
        { code: concept(BP_COMPONENTS.systolic), valueQuantity: quantity(r.value, coding) },
        { code: concept(BP_COMPONENTS.diastolic), valueQuantity: quantity(r.diastolic!, coding) },
      ],
    });
  }
  return compact({
    ...base,
    meta: meta(coding.profiles),
    code: {
      coding: coding.codes.map((c) => ({ system: LOINC, code: c.code, display: c.display })),
      text: coding.codes[0]!.display,
    },
    valueQuantity: quantity(r.value, coding),
  });
}

/** The measurement types of one `category` occurrence (an OR of its values). */
function typesOf(values: string[]): string[] {
  return [...new Set(values.flatMap((v) => typesOfCategory(parseToken(v).system, parseToken(v).code)))];
}

/** The diastolic row that makes a systolic row `m` a blood-pressure panel: same patient, instant and event. */
const PARTNER = sql`d.patient_id = m.patient_id AND d.type = 'diastolic' AND d.measured_at = m.measured_at
  AND d.device_event_id IS NOT DISTINCT FROM m.device_event_id`;

function codeCondition(value: string): SQL {
  const { system, code } = parseToken(value);
  const selected = selectionOfCode(system, code);
  if (!selected) return sql`false`;
  if (selected.panel)
    return sql`(m.type = 'systolic' AND EXISTS (SELECT 1 FROM measurements d WHERE ${PARTNER}))`;
  return sql`m.type = ${selected.type}`;
}

function dateCondition(value: string): SQL {
  const { op, start, end } = parseDateBound('date', value);
  const s = start.toISOString();
  const e = end.toISOString();
  switch (op) {
    case 'eq':
      return sql`(m.measured_at >= ${s}::timestamptz AND m.measured_at < ${e}::timestamptz)`;
    case 'ge':
      return sql`m.measured_at >= ${s}::timestamptz`;
    case 'gt':
      return sql`m.measured_at >= ${e}::timestamptz`;
    case 'le':
      return sql`m.measured_at < ${e}::timestamptz`;
    case 'lt':
      return sql`m.measured_at < ${s}::timestamptz`;
  }
}

export const observationDefinition: ResourceDefinition = {
  type: 'Observation',
  profiles: [...new Set([...CODING_OF_TYPE.values()].flatMap((c) => c.profiles))],
  params: [
    { name: '_id', type: 'token', documentation: 'The observation id (comma-separated for several).' },
    {
      name: 'patient',
      type: 'reference',
      documentation: 'The patient (`Patient/{id}` or `{id}`). A search names `patient` or `_id`.',
    },
    {
      name: 'code',
      type: 'token',
      documentation:
        'LOINC code (`http://loinc.org|8867-4`); 8480-6 and 8462-4 find the blood-pressure panels.',
    },
    { name: 'category', type: 'token', documentation: '`vital-signs`, `activity` or `laboratory`.' },
    {
      name: 'date',
      type: 'date',
      documentation: 'effectiveDateTime, with the prefixes eq, ge, gt, le, lt; repeat it for a range.',
    },
    LAST_UPDATED_PARAM,
  ],
  includes: [
    {
      value: 'Observation:device',
      type: 'Device',
      ids: (o) => {
        const ref = (o.device as { reference?: string } | undefined)?.reference;
        return ref?.startsWith('Device/') ? [ref.slice(7)] : [];
      },
    },
  ],
  refuse: (search) =>
    search.params.has('patient') || search.params.has('_id')
      ? null
      : 'An Observation search names a patient (patient=…) or ids (_id=…); a whole program is read through bulk export.',
  async page(db, scope, search) {
    const conditions: SQL[] = [sql`m.type = ANY(${textArray(MAPPED_TYPES)}::text[])`];
    for (const values of search.params.get('_id') ?? [])
      conditions.push(
        anyOf(values.map((v) => numericId(v)).map((id) => (id ? sql`m.id = ${id}` : sql`false`))),
      );
    for (const values of search.params.get('patient') ?? []) {
      const ids = values.map((v) => numericId(referenceId('Patient', v) ?? '')).filter((id) => id !== null);
      // One patient as an equality, so the (patient, instant) index yields the page in order.
      conditions.push(
        ids.length === 0
          ? sql`false`
          : ids.length === 1
            ? sql`m.patient_id = ${ids[0]}`
            : sql`m.patient_id = ANY(${`{${ids.join(',')}}`}::bigint[])`,
      );
    }
    for (const values of search.params.get('code') ?? []) conditions.push(anyOf(values.map(codeCondition)));
    for (const values of search.params.get('category') ?? [])
      conditions.push(sql`m.type = ANY(${textArray(typesOf(values))}::text[])`);
    for (const values of search.params.get('date') ?? []) conditions.push(anyOf(values.map(dateCondition)));
    conditions.push(...lastUpdatedConditions(sql`m.created_at`, search.params));
    const after = search.cursor ? cursorKey(search.cursor) : null;
    if (after) {
      // Spelt so that the (patient, instant) index starts at the cursor; the id breaks ties within an instant.
      const at = sql`(timestamptz 'epoch' + ${after.atMicros}::bigint * interval '1 microsecond')`;
      conditions.push(sql`m.measured_at >= ${at} AND (m.measured_at > ${at} OR m.id > ${after.id})`);
    }
    // The page first, then the diastolic partners of its systolic rows only (one index probe each).
    const res = await db.execute<MeasurementRow>(sql`
      SELECT m.id, m.patient_id, m.program_id, m.device_id, m.type, m.value, dia.value AS diastolic,
        m.measured_at, m.created_at, m.at_us
      FROM (
        SELECT m.id, m.patient_id, p.program_id, m.device_id, m.device_event_id, m.type, m.value, m.measured_at,
          m.created_at, (extract(epoch FROM m.measured_at) * 1000000)::bigint::text AS at_us
        FROM measurements m
        JOIN patients p ON p.id = m.patient_id AND p.program_id IN ${scope.programs}
        WHERE ${allOf(conditions)}
        ORDER BY m.measured_at, m.id
        LIMIT ${search.count + 1}
      ) m
      LEFT JOIN LATERAL (
        SELECT d.value FROM measurements d WHERE m.type = 'systolic' AND ${PARTNER} ORDER BY d.id LIMIT 1
      ) dia ON true
      ORDER BY m.measured_at, m.id`);
    const { rows, next } = paged(res.rows, search.count, (r) => [r.at_us, r.id]);
    return {
      items: rows.map((r) => ({
        resource: observationResource(r),
        patientId: r.patient_id,
        programId: r.program_id,
      })),
      next,
    };
  },
};

/** The Observation cursor: [instant in microseconds since the epoch, as digits; id]. */
function cursorKey(cursor: unknown[]): { atMicros: string; id: number } {
  const [at, id] = cursor;
  if (cursor.length !== 2 || typeof at !== 'string' || !/^-?[0-9]{1,20}$/.test(at)) throw invalidCursor();
  return { atMicros: at, id: cursorIds([id], 1)![0]! };
}
