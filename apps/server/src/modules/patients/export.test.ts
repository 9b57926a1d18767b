import { exportsContract as c, EXPORT_MESSAGES, routeUrl, XLSX } from '@caredeck/contracts';
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
let token = '';
let outsider = '';
const program = { a: 0, other: 0 };

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  program.a = (await g.program({ name: 'Export Clinic' })).id;
  program.other = (await g.program()).id;
  const staff = await g.admin({
    hipaaConsented: true,
    programRoles: [{ programId: program.a, role: 'admin' }],
  });
  token = (await signIn(app, staff.email, FACTORY_PASSWORD)).token;
  const stranger = await g.admin({
    hipaaConsented: true,
    programRoles: [{ programId: program.other, role: 'admin' }],
  });
  outsider = (await signIn(app, stranger.email, FACTORY_PASSWORD)).token;
  // 4,500 patients enrolled in 2026 (three batches), one enrolled after the period, one inactivated before it.
  await g.patients(
    Array.from({ length: 4500 }, (_, i) => ({
      programId: program.a,
      firstName: `First${i}`,
      lastName: `Last${String(i).padStart(5, '0')}`,
      dob: '1950-06-15',
      createdAt: new Date('2026-03-01T12:00:00Z'),
    })),
  );
  await g.patients([
    { programId: program.a, lastName: 'Later', createdAt: new Date('2026-12-01T00:00:00Z') },
  ]);
  const [gone] = await g.patients([
    { programId: program.a, lastName: 'Gone', createdAt: new Date('2026-01-01T00:00:00Z') },
  ]);
  await db.execute(
    sql`UPDATE patients SET active = false, status = 'inactive', deactivated_at = '2026-02-01' WHERE id = ${gone!}`,
  );
  await g.patients([
    { programId: program.other, lastName: 'Elsewhere', createdAt: new Date('2026-03-01T00:00:00Z') },
  ]);
});

const download = (as: string, start: string, end: string, programId = program.a) =>
  app.inject({ method: 'GET', url: routeUrl(c.patients, { programId, start, end }), headers: bearer(as) });

describe('GET programs/{p}/users/export/{start}/{end}', () => {
  it('streams a real .xlsx of the patients in the program during the period, stamped file name, audited', async () => {
    const res = await download(token, '2026-04-01', '2026-11-30');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain(XLSX);
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="patients_\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_report\.xlsx"/,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Patients')!;
    expect(sheet.getRow(1).getCell(2).value).toBe('Last name');
    expect(sheet.rowCount).toBe(1 + 4500);
    const names = new Set<string>();
    sheet.eachRow((row, n) => {
      if (n > 1) names.add(String(row.getCell(2).value));
    });
    expect(names.size).toBe(4500);
    expect(names.has('Later') || names.has('Gone') || names.has('Elsewhere')).toBe(false);
    const dob = sheet.getRow(2).getCell(5).value;
    expect(dob).toBeInstanceOf(Date);
    expect((dob as Date).toISOString().slice(0, 10)).toBe('1950-06-15');
    const audit = await db.execute<{ details: { rows: number } }>(
      sql`SELECT details FROM audit_events WHERE action = 'patients.export' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.rows[0]?.details.rows).toBe(4500);
  });

  it('answers 422 for a reversed or too long period, 404 for a malformed date or another enterprise, 401 signed out', async () => {
    const reversed = await download(token, '2026-05-01', '2026-04-01');
    expect(reversed.statusCode).toBe(422);
    expect(reversed.json().errors).toEqual({ end: [EXPORT_MESSAGES.range] });
    expect((await download(token, '2024-01-01', '2026-01-01')).json().errors).toEqual({
      end: [EXPORT_MESSAGES.tooLong],
    });
    expect((await download(token, '2026-13-45', '2026-12-01')).statusCode).toBe(422);
    // A day the calendar lacks is refused, not sent to the database (it was a 500).
    const february = await download(token, '2026-02-01', '2026-02-30');
    expect(february.statusCode).toBe(422);
    expect(february.json().errors).toEqual({ end: ['Use a real date.'] });
    expect((await download(token, 'yesterday', '2026-12-01')).statusCode).toBe(404);
    expect((await download(outsider, '2026-01-01', '2026-12-01')).statusCode).toBe(404);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: routeUrl(c.patients, { programId: program.a, start: '2026-01-01', end: '2026-02-01' }),
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('GET programs/{p}/users/pods/{start}/{end}', () => {
  it('streams the pods created in the period as a real .xlsx', async () => {
    const [patient] = await given(db).patients([{ programId: program.a, lastName: 'Podman' }]);
    const regimen = await db.execute<{ id: number }>(sql`
      INSERT INTO regimens (patient_id, program_id, name, times, scheduled_at)
      VALUES (${patient!}, ${program.a}, 'Metformin 500 mg', '{08:00}', now()) RETURNING id`);
    await db.execute(sql`
      INSERT INTO pods (regimen_id, patient_id, program_id, barcode, prefix, num, original_servings, servings_remaining)
      VALUES (${regimen.rows[0]!.id}, ${patient!}, ${program.a}, 'EXP000000011', 'EXP', 1, 28, 20)`);
    const today = new Date().toISOString().slice(0, 10);
    const res = await app.inject({
      method: 'GET',
      url: routeUrl(c.pods, { programId: program.a, start: today, end: today }),
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /filename="pods_\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_report\.xlsx"/,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const row = book.getWorksheet('Pods')!.getRow(2);
    expect([row.getCell(1).value, row.getCell(3).value, row.getCell(6).value, row.getCell(9).value]).toEqual([
      'EXP000000011',
      'Metformin 500 mg',
      'Podman',
      20,
    ]);
    const outsiderRes = await app.inject({
      method: 'GET',
      url: routeUrl(c.pods, { programId: program.a, start: today, end: today }),
      headers: bearer(outsider),
    });
    expect(outsiderRes.statusCode).toBe(404);
  });
});
