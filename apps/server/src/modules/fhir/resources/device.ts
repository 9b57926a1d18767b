import { type SQL, sql } from 'drizzle-orm';
import { DEVICE_KIND_DISPLAY, SYSTEMS } from '../codes';
import { allOf, anyOf } from '../fhir.queries';
import { cursorIds, numericId, parseToken, referenceId } from '../search';
import { compact, type FhirResource, paged, type ResourceDefinition, text } from './resource';

type DeviceRow = {
  id: number;
  serial: string;
  vendor: string;
  kind: string;
  program_id: number;
  patient_id: number | null;
  firmware: string | null;
};

/**
 * A device of a program as a Device. Stock devices (no program yet) are nobody's to read through FHIR.
 * Its type is CareDeck's device kind (no SNOMED CT mapping yet: docs/fhir.md); last seen, battery and
 * connection are not mapped (no R4 Device element; DeviceMetric later).
 */
export function deviceResource(r: DeviceRow): FhirResource {
  const display = DEVICE_KIND_DISPLAY[r.kind] ?? r.kind;
  return compact({
    resourceType: 'Device',
    id: String(r.id),
    identifier: [{ system: SYSTEMS.deviceSerial, value: r.serial }],
    status: 'active',
    manufacturer: text(r.vendor),
    serialNumber: r.serial,
    deviceName: [{ name: display, type: 'user-friendly-name' }],
    type: { coding: [{ system: SYSTEMS.deviceKind, code: r.kind, display }], text: display },
    version: text(r.firmware) ? [{ value: text(r.firmware) }] : undefined,
    patient: r.patient_id ? { reference: `Patient/${r.patient_id}` } : undefined,
    owner: { reference: `Organization/program-${r.program_id}` },
  });
}

function identifierCondition(value: string): SQL {
  const { system, code } = parseToken(value);
  return system === undefined || system === SYSTEMS.deviceSerial ? sql`d.serial = ${code}` : sql`false`;
}

export const deviceDefinition: ResourceDefinition = {
  type: 'Device',
  profiles: [],
  params: [
    { name: '_id', type: 'token', documentation: 'The device id (comma-separated for several).' },
    { name: 'patient', type: 'reference', documentation: 'The patient the device is handed to.' },
    {
      name: 'identifier',
      type: 'token',
      documentation: 'The serial number (`urn:caredeck:device-serial|{serial}`).',
    },
  ],
  async page(db, scope, search) {
    const conditions: SQL[] = [sql`d.program_id IN ${scope.programs}`];
    for (const values of search.params.get('_id') ?? [])
      conditions.push(
        anyOf(values.map((v) => numericId(v)).map((id) => (id ? sql`d.id = ${id}` : sql`false`))),
      );
    for (const values of search.params.get('patient') ?? []) {
      const ids = values.map((v) => numericId(referenceId('Patient', v) ?? '')).filter((id) => id !== null);
      conditions.push(
        ids.length > 0 ? sql`d.patient_id = ANY(${`{${ids.join(',')}}`}::bigint[])` : sql`false`,
      );
    }
    for (const values of search.params.get('identifier') ?? [])
      conditions.push(anyOf(values.map(identifierCondition)));
    const after = cursorIds(search.cursor, 1);
    if (after) conditions.push(sql`d.id > ${after[0]}`);
    const res = await db.execute<DeviceRow>(sql`
      SELECT d.id, d.serial, d.vendor, d.kind, d.program_id, d.patient_id, d.firmware
      FROM devices d
      WHERE ${allOf(conditions)}
      ORDER BY d.id
      LIMIT ${search.count + 1}`);
    const { rows, next } = paged(res.rows, search.count, (r) => [r.id]);
    return {
      items: rows.map((r) => ({
        resource: deviceResource(r),
        patientId: r.patient_id,
        programId: r.program_id,
      })),
      next,
    };
  },
};
