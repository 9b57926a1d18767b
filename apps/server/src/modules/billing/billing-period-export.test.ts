import { routeUrl, billingPeriodsExportContract as xc } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
let db: Database;
let program = 0;
const tokens: Record<string, string> = {};
const NY = 'America/New_York';

const get = (as: string | null, format: 'csv' | 'xlsx', query = '') =>
  app.inject({
    method: 'GET',
    url: `${routeUrl(xc[format], { programId: program })}?${query}`,
    headers: as ? bearer(tokens[as]!) : {},
  });

/** RFC 4180 enough for these files: quoted cells with doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.split('\r\n').filter((l) => l !== '')) {
    const cells: string[] = [];
    for (const m of line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)) {
      const cell = m[1] ?? '';
      cells.push(cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell);
      if (m[2] === '') break;
    }
    rows.push(cells);
  }
  return rows;
}

beforeAll(async () => {
  const t = await testApp();
  app = t.app;
  db = t.db;
  const g = given(db);
  const enterpriseId = (await g.enterprise()).id;
  program = (await g.program({ enterpriseId, name: 'Billing export' })).id;
  const foreignProgram = (await g.program({ enterpriseId: (await g.enterprise()).id })).id;
  const nurse = await g.admin({
    hipaaConsented: true,
    givenName: 'Nora',
    familyName: 'Nurse',
    programRoles: [{ programId: program, role: 'care_coordinator' }],
  });
  const doctor = await g.admin({
    givenName: 'Dana',
    familyName: 'Doctor',
    programRoles: [{ programId: program, role: 'physician' }],
  });
  const stranger = await g.admin({
    hipaaConsented: true,
    programRoles: [{ programId: foreignProgram, role: 'admin' }],
  });
  tokens.nurse = (await signIn(app, nurse.email, FACTORY_PASSWORD)).token;
  tokens.stranger = (await signIn(app, stranger.email, FACTORY_PASSWORD)).token;
  const ann = (
    await g.patient({
      programId: program,
      firstName: 'Ann',
      lastName: 'Aardvark',
      timeZone: NY,
      assignedAdminId: nurse.id,
    })
  ).id;
  await g.patient({ programId: program, firstName: 'Bob', lastName: 'Bee', timeZone: NY });
  await db.execute(sql`UPDATE patients SET mrn = 'MRN-001', physician_id = ${doctor.id} WHERE id = ${ann}`);
  await db.execute(sql`
    INSERT INTO disease_states (patient_id, program_id, conditions) VALUES
      (${ann}, ${program}, '[{"code":"I10","description":"Essential (primary) hypertension"},
        {"code":"E11.9","description":"Type 2 diabetes mellitus without complications"}]'::jsonb)`);
  // 16 device days from 1 October (99454 + 99453); 40:00 of the nurse's RPM time with a call and 30:00 of the
  // physician's: 70:00 of RPM time (99457 + two 99458) and 99091 (the spec's rule: physicians' RPM time).
  const [device] = (
    await db.execute<{ id: number }>(sql`
      INSERT INTO devices (serial, vendor, kind, program_id, patient_id, provisioned_at)
      VALUES ('BP-EXPORT-1', 'acme', 'bp_cuff', ${program}, ${ann}, '2026-10-01 14:00+00') RETURNING id`)
  ).rows;
  await db.execute(sql`
    INSERT INTO measurements (patient_id, program_id, device_id, type, value, unit, measured_at)
    SELECT ${ann}::bigint, ${program}::bigint, ${device?.id}::bigint, 'systolic', 120, 'mmHg',
      '2026-10-01 16:00+00'::timestamptz + (d || ' days')::interval FROM generate_series(0, 15) d`);
  await db.execute(sql`
    INSERT INTO billing_time_entries (patient_id, program_id, admin_id, type, activity, started_at, ended_at, seconds,
      interactive, billable)
    VALUES (${ann}, ${program}, ${nurse.id}, 'rpm', 'Video call', '2026-10-05 14:00+00', '2026-10-05 14:40+00', 2400, true, true),
      (${ann}, ${program}, ${doctor.id}, 'rpm', 'Data review', '2026-10-07 14:00+00', '2026-10-07 14:30+00', 1800, false, true)`);
});

const HEADER = [
  'MRN',
  'Last name',
  'First name',
  'Period start',
  'Period end',
  'Device days',
  'Device code',
  'Month start',
  'Month end',
  'RPM time',
  'CCM time',
  'Physician time',
  'Codes earned',
  'Units',
  'Rendering provider',
  'Assigned staff',
  'ICD-10',
];
const ANN = [
  'MRN-001',
  'Aardvark',
  'Ann',
  '2026-10-01',
  '2026-10-30',
  '16',
  '99454',
  '2026-10-01',
  '2026-10-31',
  '70:00',
  '0:00',
  '30:00',
  '99453; 99454; 99457; 99458 x2; 99091',
  '6',
  'Dana Doctor',
  'Nora Nurse',
  'E11.9; I10',
];

describe('GET programs/{id}/billing/periods.csv and .xlsx (ADR 080)', () => {
  it('answers 401 without a session, 404 for another program, 422 for an unknown filter', async () => {
    expect((await get(null, 'csv')).statusCode).toBe(401);
    expect((await get('stranger', 'xlsx')).statusCode).toBe(404);
    const bad = await get('nurse', 'csv', 'code=1&status=x');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['code', 'status']);
  });

  it('writes a CSV a billing team imports: one row per patient and period, codes with units, provider, ICD-10', async () => {
    const res = await get('nurse', 'csv', 'date=2026-10-20');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="billing_periods_[\d_]+\.csv"$/,
    );
    const rows = parseCsv(res.body);
    expect(rows[0]).toEqual(HEADER);
    expect(rows[1]).toEqual(ANN);
    expect(rows[2]?.slice(0, 7)).toEqual(['', 'Bee', 'Bob', '', '', '0', '']);
    expect(rows).toHaveLength(3);
    const audit = await db.execute<{ details: Record<string, unknown> }>(
      sql`SELECT details FROM audit_events WHERE action = 'billing.export' AND program_id = ${program}`,
    );
    expect(audit.rows[0]?.details).toMatchObject({ view: 'periods', format: 'csv', rows: 2 });
  });

  it('writes the same rows as XLSX, with the filters of the view', async () => {
    const res = await get('nurse', 'xlsx', 'date=2026-10-20&status=earning');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/\.xlsx"$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Billing periods');
    if (!sheet) throw new Error('no sheet');
    const values = (i: number) => (sheet.getRow(i).values as unknown[]).slice(1).map((v) => String(v ?? ''));
    expect(values(1)).toEqual(HEADER);
    expect(values(2)).toEqual(ANN);
    expect(sheet.actualRowCount).toBe(2);
    expect(typeof sheet.getRow(2).getCell(14).value).toBe('number');
  });

  it('exports the patients who earn nothing yet, and nothing for a code no patient earns', async () => {
    const waiting = parseCsv((await get('nurse', 'csv', 'date=2026-10-20&status=not_earning')).body);
    expect(waiting.map((r) => r[1])).toEqual(['Last name', 'Bee']);
    const none = parseCsv((await get('nurse', 'csv', 'date=2026-10-20&code=99445')).body);
    expect(none).toEqual([HEADER]);
    const physician = parseCsv((await get('nurse', 'csv', 'date=2026-10-20&code=99091')).body);
    expect(physician.map((r) => r[1])).toEqual(['Last name', 'Aardvark']);
  });
});
