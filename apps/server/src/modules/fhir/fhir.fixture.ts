import { sql } from 'drizzle-orm';
import type { Config } from '../../config';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

/**
 * Two enterprises: E1 with programs A and B, E2 with program C. A physician of A (the reader), the enterprise
 * admin of E1, and an admin of C (the outsider). A patient of A with every field FHIR maps, a cuff and a
 * reading of each type; a patient of B and one of C with a reading each.
 */
export async function fhirFixture(overrides: Partial<Config> = {}) {
  const { app, db, config } = await testApp(overrides);
  const g = given(db);
  const e1 = (await g.enterprise()).id;
  const e2 = (await g.enterprise()).id;
  const programA = (await g.program({ enterpriseId: e1, name: 'Heart Failure Monitoring' })).id;
  const programB = (await g.program({ enterpriseId: e1 })).id;
  const programC = (await g.program({ enterpriseId: e2 })).id;
  const reader = await g.admin({
    hipaaConsented: true,
    givenName: 'Ada',
    familyName: 'Reader',
    programRoles: [{ programId: programA, role: 'physician' }],
  });
  const entAdmin = await g.admin({ hipaaConsented: true, enterpriseAdminOf: [e1] });
  const outsiderAdmin = await g.admin({
    hipaaConsented: true,
    programRoles: [{ programId: programC, role: 'admin' }],
  });

  const patientA = (
    await g.patient({
      programId: programA,
      firstName: 'Maria',
      lastName: 'Lopez',
      dob: '1956-04-12',
      sex: 'female',
      email: 'maria@example.test',
      phoneNumber: '+15550101',
      race: 'White',
      ethnicity: 'Hispanic or Latino',
      city: 'Springfield',
      state: 'IL',
    })
  ).id;
  await db.execute(sql`
    UPDATE patients SET mrn = 'MRN-1042', middle_name = 'J', address_line1 = '1 Main St', zip = '62701',
      physician_id = ${reader.id}
    WHERE id = ${patientA}`);
  const patientB = (await g.patient({ programId: programB, sex: 'male' })).id;
  await db.execute(sql`UPDATE patients SET mrn = 'MRN-1042' WHERE id = ${patientB}`);
  const patientC = (await g.patient({ programId: programC })).id;
  const cuff = await g.device({ programId: programA, patientId: patientA, kind: 'bp_cuff' });
  const deviceB = await g.device({ programId: programB, patientId: patientB, kind: 'scale' });

  const t0 = Date.parse('2026-03-01T08:00:00Z');
  const at = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString();
  const rows: [number, number, number | null, string, number, string, string][] = [
    [patientA, programA, cuff.id, 'systolic', 128, 'mmHg', at(0)],
    [patientA, programA, cuff.id, 'diastolic', 82, 'mmHg', at(0)],
    [patientA, programA, cuff.id, 'pulse', 71, 'bpm', at(0)],
    [patientA, programA, null, 'oxygen', 97, '%', at(60)],
    [patientA, programA, null, 'weight', 72.5, 'kg', at(24 * 60)],
    [patientA, programA, null, 'temperature', 36.8, '°C', at(24 * 60 + 5)],
    [patientA, programA, null, 'glucose', 104, 'mg/dL', at(2 * 24 * 60)],
    [patientA, programA, null, 'steps', 6400, 'steps', at(3 * 24 * 60)],
    [patientA, programA, null, 'sleep', 420, 'min', at(3 * 24 * 60 + 1)],
    [patientA, programA, null, 'active_minutes', 35, 'min', at(3 * 24 * 60 + 2)],
    [patientA, programA, cuff.id, 'systolic', 141, 'mmHg', at(31 * 24 * 60)],
    [patientB, programB, deviceB.id, 'weight', 90, 'kg', at(0)],
    [patientC, programC, null, 'pulse', 60, 'bpm', at(0)],
  ];
  const ids = await db.execute<{ id: number; type: string; patient_id: number }>(sql`
    INSERT INTO measurements (patient_id, program_id, device_id, type, value, unit, measured_at)
    SELECT * FROM jsonb_to_recordset(${JSON.stringify(
      rows.map(([patient_id, program_id, device_id, type, value, unit, measured_at]) => ({
        patient_id,
        program_id,
        device_id,
        type,
        value,
        unit,
        measured_at,
      })),
    )}::jsonb) AS x(patient_id bigint, program_id bigint, device_id bigint, type text, value float8, unit text,
      measured_at timestamptz)
    RETURNING id, type, patient_id`);
  const measurement = (patient: number, type: string, nth = 0) =>
    ids.rows.filter((r) => r.patient_id === patient && r.type === type)[nth]!.id;

  const regimenA = (
    await g.regimen({
      patientId: patientA,
      programId: programA,
      name: 'Lisinopril 10 mg',
      times: ['08:00', '20:00'],
      scheduledAt: '2026-02-01T00:00:00Z',
      endAt: '2026-06-01T00:00:00Z',
    })
  ).id;
  await db.execute(sql`UPDATE regimens SET created_by = ${reader.id} WHERE id = ${regimenA}`);
  const asNeededA = (
    await g.regimen({ patientId: patientA, programId: programA, name: 'Albuterol', repeat: 'as_needed' })
  ).id;
  const regimenB = (await g.regimen({ patientId: patientB, programId: programB })).id;
  const dosesA = [
    ...(await g.doses({ patientId: patientA, regimenId: regimenA, at: [at(5), at(12 * 60 + 3)] })),
    ...(await g.doses({ patientId: patientA, regimenId: regimenA, at: [at(24 * 60 + 1)], kind: 'skipped' })),
  ];
  const dosesB = await g.doses({ patientId: patientB, regimenId: regimenB, at: [at(5)] });

  const token = async (email: string) => (await signIn(app, email, FACTORY_PASSWORD)).token;
  const tokens = {
    reader: await token(reader.email),
    entAdmin: await token(entAdmin.email),
    outsider: await token(outsiderAdmin.email),
  };
  const get = (who: keyof typeof tokens | null, url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { ...(who ? bearer(tokens[who]) : {}), ...headers } });

  return {
    app,
    db,
    config,
    tokens,
    get,
    ids: {
      e1,
      e2,
      programA,
      programB,
      programC,
      reader: reader.id,
      entAdmin: entAdmin.id,
      outsider: outsiderAdmin.id,
      patientA,
      patientB,
      patientC,
      cuff: cuff.id,
      deviceB: deviceB.id,
      regimenA,
      asNeededA,
      regimenB,
      dosesA,
      dosesB,
    },
    cuffSerial: cuff.serial,
    measurement,
  };
}

/** The resources of a searchset Bundle. */
export function entries(body: { entry?: { resource: Record<string, unknown> }[] }) {
  return (body.entry ?? []).map((e) => e.resource);
}
