import { text as readText } from 'node:stream/consumers';
import { externalOrdersContract as c, EXTERNAL_ORDER_MESSAGES as M, routeUrl } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config';
import type { Database } from '../../platform/db/client';
import { diskStorage } from '../../platform/files/storage';
import type { App } from '../../platform/http/types';
import { externalOrdersSampleCsv } from '../../seed/demo-external-orders';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';
import { parseCsv, readOrdersCsv } from './external-orders.csv';
import { equipmentFileOf } from './external-orders.queries';
import { readSig } from './external-orders.sig';

const SAMPLE = externalOrdersSampleCsv();
const DAY = '2026-12-07';

let app: App;
let db: Database;
let config: Config;
let program = 0;
let otherProgram = 0;
let harold = 0;
let margaret = 0;
let margaretTwin = 0;
let foreignPatient = 0;
const tokens: Record<string, string> = {};

const send = (as: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: bearer(tokens[as]!) });

function upload(as: string, csv: string | Buffer, programId = program, name = 'orders.csv') {
  const boundary = 'caredeckboundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="program_id"\r\n\r\n${programId}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    Buffer.isBuffer(csv) ? csv : Buffer.from(csv),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return app.inject({
    method: 'POST',
    url: routeUrl(c.import, {}),
    payload,
    headers: { ...bearer(tokens[as]!), 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

const list = (as: string, query: Record<string, string | number>) =>
  send(as, 'GET', routeUrl(c.list, {}, { program_id: program, per_page: 50, ...query }));
const ordersOf = async (query: Record<string, string | number> = {}) =>
  (await list('pharmacist', query)).json().data as {
    id: number;
    order_number: string;
    status: string;
    times: string[];
    external_patient: { id: number; first_name: string; patient: { id: number } | null };
  }[];

beforeAll(async () => {
  ({ app, db, config } = await testApp());
  const g = given(db);
  const enterpriseId = (await g.enterprise()).id;
  program = (await g.program({ enterpriseId, type: 'pharmacy' })).id;
  otherProgram = (await g.program({ enterpriseId })).id;
  const make = async (key: string, input: Parameters<typeof g.admin>[0]) => {
    const a = await g.admin({ hipaaConsented: true, ...input });
    tokens[key] = (await signIn(app, a.email, FACTORY_PASSWORD)).token;
  };
  await make('pharmacist', { programRoles: [{ programId: program, role: 'pharmacy' }] });
  await make('admin', { programRoles: [{ programId: program, role: 'admin' }] });
  await make('nurse', { programRoles: [{ programId: program, role: 'care_coordinator' }] });
  await make('stranger', { programRoles: [{ programId: otherProgram, role: 'pharmacy' }] });
  harold = (
    await g.patient({ programId: program, firstName: 'Harold', lastName: 'Jensen', dob: '1944-07-22' })
  ).id;
  margaret = (
    await g.patient({
      programId: program,
      firstName: 'Margaret',
      lastName: 'Okafor',
      dob: '1951-03-14',
      phoneNumber: '+1 555 318 0042',
    })
  ).id;
  margaretTwin = (
    await g.patient({ programId: program, firstName: 'Martha', lastName: 'Okafor', dob: '1949-01-01' })
  ).id;
  foreignPatient = (await g.patient({ programId: otherProgram, firstName: 'Maggie', lastName: 'Okafor' })).id;
});

describe('reading the CSV', () => {
  it('parses quoted fields with commas, doubled quotes and line breaks, and keeps the row numbers', () => {
    const { records } = parseCsv('\uFEFFa,b\r\n"x, y","say ""hi"""\n"two\nlines",z\n');
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, y', 'say "hi"'] },
      { line: 3, fields: ['two\nlines', 'z'] },
    ]);
    expect(parseCsv('a\n"open').error).toMatch(/never closed/);
  });

  it('reads the schedule from common sigs', () => {
    expect(readSig('Take 2 tablets by mouth twice daily')).toMatchObject({ timesPerDay: 2, perDose: 2 });
    expect(readSig('1 cap PO TID')).toMatchObject({ timesPerDay: 3 });
    expect(readSig('Take one tablet at bedtime')).toMatchObject({ timesPerDay: 1, bedtime: true });
    expect(readSig('Take 1 tablet every 6 hours as needed')).toMatchObject({ asNeeded: true });
    expect(readSig('Use as directed').timesPerDay).toBeNull();
  });

  it('reads the sample file without errors', () => {
    const { rows, errors } = readOrdersCsv(SAMPLE, '2026-11-01');
    expect(errors).toEqual({});
    expect(rows).toHaveLength(6);
    expect(rows.find((r) => r.order_number === 'RX-240203')).toMatchObject({ times: ['21:00'], per_dose: 1 });
    expect(rows[0]!.prescriber).toBe('Ruiz, Ana MD');
  });
});

describe('external orders', () => {
  it('refuses a bad file whole: every row error with its row number, nothing stored', async () => {
    const bad = [
      'order_number,pharmacy_patient_id,first_name,last_name,dob,drug_name,quantity,days_supply,sig,need_by_date,ndc',
      'RX-1,PH-1,Ann,Lee,1950-02-30,Aspirin,30,30,Take 1 tablet daily,2026-12-01,',
      'RX-2,PH-2,Bo,Ng,1950-01-01,Aspirin,0,30,Use as directed,2026-12-01,12-34',
      'RX-1,PH-3,Cy,Oz,1950-01-01,Aspirin,30,30,Take 1 tablet daily,next week,',
    ].join('\n');
    const res = await upload('pharmacist', bad);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(M.fileHasErrors);
    expect(res.json().errors).toMatchObject({
      'rows.2.dob': ['Use a date like 2026-12-01.'],
      'rows.3.quantity': ['Give a whole number from 1 to 10000.'],
      'rows.3.sig': [expect.stringMatching(/times_per_day/)],
      'rows.3.ndc': [expect.any(String)],
      'rows.4.order_number': ['The same order number is on row 2.'],
      'rows.4.need_by_date': ['Use a date like 2026-12-01.'],
    });
    expect((await db.execute(sql`SELECT count(*)::int AS n FROM external_orders`)).rows[0]).toEqual({ n: 0 });
    // A header without the required columns, an empty file, something that is not text.
    expect(
      (await upload('pharmacist', 'order_number,drug_name\nRX-1,Aspirin\n')).json().errors.file[0],
    ).toMatch(/lacks: pharmacy_patient_id/);
    expect((await upload('pharmacist', '')).statusCode).toBe(422);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    expect((await upload('pharmacist', png)).json().errors.file).toBeDefined();
  });

  it('answers 413 for a file over 2 MB', async () => {
    const res = await upload('pharmacist', `${'x'.repeat(2 * 1024 * 1024 + 10)}\n`);
    expect(res.statusCode).toBe(413);
  });

  it('imports the sample: exact matches linked, the others waiting; a second import only finds duplicates', async () => {
    const res = await upload('pharmacist', SAMPLE);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      message: M.imported,
      imported: 6,
      duplicates: 0,
      updated: 0,
      matched: 2,
      unmatched_patients: 2,
    });
    const again = await upload('admin', SAMPLE);
    expect(again.json()).toMatchObject({ imported: 0, duplicates: 6, matched: 0 });
    const orders = await ordersOf();
    expect(orders).toHaveLength(6);
    expect(
      orders.filter((o) => o.status === 'matched').every((o) => o.external_patient.patient?.id === harold),
    ).toBe(true);
    expect(orders.find((o) => o.order_number === 'RX-240201')!.status).toBe('received');
    const history = await send(
      'pharmacist',
      'GET',
      routeUrl(c.history, { orderId: orders.find((o) => o.order_number === 'RX-240101')!.id }),
    );
    expect(history.json().data).toEqual([
      expect.objectContaining({ from: null, to: 'matched', note: 'Imported from orders.csv' }),
    ]);
  });

  it('filters by date, statuses, automation, patient, drug and patient id; bad filters answer 422', async () => {
    expect((await ordersOf({ date: '2026-12-08' })).map((o) => o.order_number)).toEqual(['RX-240301']);
    expect((await ordersOf({ statuses: 'received' })).length).toBe(4);
    expect((await ordersOf({ statuses: 'matched,received' })).length).toBe(6);
    expect((await ordersOf({ only_automation: '1' })).length).toBe(5);
    expect((await ordersOf({ search: 'okaf' })).length).toBe(3);
    expect((await ordersOf({ searchDrug: 'metf' })).map((o) => o.order_number)).toEqual(['RX-240201']);
    expect((await ordersOf({ searchDrug: '00093104801' })).map((o) => o.order_number)).toEqual(['RX-240201']);
    expect((await ordersOf({ user_id: harold })).length).toBe(2);
    expect((await ordersOf({ verified_only: '1' })).length).toBe(0);
    expect((await list('pharmacist', { date: '2026-13-01' })).statusCode).toBe(422);
    expect((await list('pharmacist', { statuses: 'lost' })).json().errors.statuses).toBeDefined();
    const paged = await list('pharmacist', { per_page: 4, page: 2 });
    expect(paged.json()).toMatchObject({ total: 6, current_page: 2, last_page: 2 });
    expect(paged.json().data).toHaveLength(2);
    const statuses = await send('pharmacist', 'GET', routeUrl(c.statuses, {}, { program_id: program }));
    expect(statuses.json().data.find((s: { status: string }) => s.status === 'received').orders).toBe(4);
  });

  it('lists candidates with their reasons and links the pharmacy patient and all their orders', async () => {
    const maggie = (await ordersOf({ search: 'Maggie' }))[0]!.external_patient.id;
    const matches = await send('pharmacist', 'GET', routeUrl(c.matches, { id: maggie }));
    expect(matches.statusCode).toBe(200);
    const candidates = matches.json().data as { id: number; reasons: string[] }[];
    expect(candidates[0]).toMatchObject({ id: margaret });
    expect(candidates[0]!.reasons).toEqual(
      expect.arrayContaining(['same_dob', 'similar_name', 'same_phone']),
    );
    expect(candidates.find((x) => x.id === margaretTwin)?.reasons).toEqual(['similar_name']);
    expect(candidates.some((x) => x.id === foreignPatient)).toBe(false);

    // Another program's patient is not found; another program's staff cannot see this one.
    expect(
      (await send('pharmacist', 'POST', routeUrl(c.merge, { id: maggie, patientId: foreignPatient })))
        .statusCode,
    ).toBe(404);
    expect((await send('stranger', 'GET', routeUrl(c.matches, { id: maggie }))).statusCode).toBe(404);
    expect((await send('nurse', 'GET', routeUrl(c.matches, { id: maggie }))).statusCode).toBe(403);

    const merged = await send('pharmacist', 'POST', routeUrl(c.merge, { id: maggie, patientId: margaret }));

    expect(merged.statusCode).toBe(200);
    expect(merged.json()).toMatchObject({
      message: M.merged,
      orders: 3,
      external_patient: { patient: { id: margaret } },
    });
    expect((await ordersOf({ user_id: margaret })).every((o) => o.status === 'matched')).toBe(true);
    const audit = await db.execute(
      sql`SELECT count(*)::int AS n FROM audit_events WHERE action = 'external_orders.merge' AND subject_id = ${margaret}`,
    );
    expect(audit.rows[0]).toEqual({ n: 1 });
  });

  it('shows the fill files and the schedules, verifies both, and a change of times asks for the fill files again', async () => {
    const fillUrl = routeUrl(c.fillFiles, { userId: margaret, needByDate: DAY });
    const fill = await send('pharmacist', 'GET', fillUrl);
    expect(fill.statusCode).toBe(200);
    expect(fill.json()).toMatchObject({ days: 30, pods: 90, verified: false });
    expect(
      fill.json().slots.map((s: { time: string; items: unknown[] }) => [s.time, s.items.length]),
    ).toEqual([
      ['08:00', 2],
      ['20:00', 1],
      ['21:00', 1],
    ]);
    const regimensUrl = routeUrl(c.regimens, { userId: margaret, needByDate: DAY });
    expect((await send('pharmacist', 'GET', regimensUrl)).json().regimens).toHaveLength(3);

    // Bad dates and patients of other programs; finalize before verification is refused.
    expect(
      (await send('pharmacist', 'GET', routeUrl(c.fillFiles, { userId: margaret, needByDate: '2026-02-30' })))
        .statusCode,
    ).toBe(422);
    expect(
      (await send('pharmacist', 'GET', routeUrl(c.fillFiles, { userId: foreignPatient, needByDate: DAY })))
        .statusCode,
    ).toBe(404);
    expect(
      (await send('pharmacist', 'GET', routeUrl(c.fillFiles, { userId: margaret, needByDate: '2027-01-01' })))
        .statusCode,
    ).toBe(404);
    const ids = (await ordersOf({ user_id: margaret })).map((o) => o.id);
    const early = await send('pharmacist', 'PUT', routeUrl(c.finalize, {}), {
      program_id: program,
      external_order_ids: ids,
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toContain(M.notVerified);

    const verified = await send('pharmacist', 'PUT', fillUrl);
    expect(verified.json()).toMatchObject({ message: M.fillVerified, data: { verified: true } });
    expect((await ordersOf({ user_id: margaret })).every((o) => o.status === 'fill_verified')).toBe(true);

    // Wrong number of times: 422, nothing changed.
    const metformin = (await ordersOf({ searchDrug: 'Metformin' }))[0]!;
    const wrong = await send('pharmacist', 'PUT', regimensUrl, {
      regimens: [{ order_id: metformin.id, times: ['07:30'] }],
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors['regimens.0.times']).toEqual([M.timesCount]);
    const corrected = await send('pharmacist', 'PUT', regimensUrl, {
      regimens: [{ order_id: metformin.id, times: ['19:00', '07:30'] }],
    });
    expect(corrected.json()).toMatchObject({ message: M.scheduleVerified, fill_files_reset: true });
    expect((await ordersOf({ user_id: margaret })).every((o) => o.status === 'schedule_verified')).toBe(true);
    await send('pharmacist', 'PUT', fillUrl);
    const orders = await ordersOf({ user_id: margaret });
    expect(orders.every((o) => o.status === 'verified')).toBe(true);
    expect(orders.find((o) => o.id === metformin.id)!.times).toEqual(['07:30', '19:00']);
    expect((await ordersOf({ verified_only: 'true' })).length).toBe(3);

    const history = await send('pharmacist', 'GET', routeUrl(c.history, { orderId: metformin.id }));
    expect(history.json().data.map((h: { from: string; to: string }) => `${h.from}>${h.to}`)).toEqual([
      'null>received',
      'received>matched',
      'matched>fill_verified',
      'fill_verified>schedule_verified',
      'schedule_verified>verified',
    ]);
  });

  it('finalizes in one go: real regimens and pods, the equipment file in storage, statuses and tracking', async () => {
    const ids = (await ordersOf({ user_id: margaret })).map((o) => o.id);
    expect(
      (await send('nurse', 'PUT', routeUrl(c.finalize, {}), { program_id: program, external_order_ids: ids }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await send('stranger', 'PUT', routeUrl(c.finalize, {}), {
          program_id: program,
          external_order_ids: ids,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await send('pharmacist', 'PUT', routeUrl(c.finalize, {}), {
          program_id: program,
          external_order_ids: [],
        })
      ).statusCode,
    ).toBe(422);
    const res = await send('pharmacist', 'PUT', routeUrl(c.finalize, {}), {
      program_id: program,
      external_order_ids: ids,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: M.finalized,
      equipment_files: [{ name: `pod_fill_${margaret}_${DAY}.csv`, orders: 3, rows: 120 }],
    });
    expect(res.json().data.every((o: { status: string }) => o.status === 'finalized')).toBe(true);

    const regimens = await db.execute<{ name: string; times: string[]; num: number; pods: number }>(sql`
      SELECT r.name, r.times, r.num, (SELECT count(*)::int FROM pods d WHERE d.regimen_id = r.id) AS pods
      FROM regimens r WHERE r.patient_id = ${margaret} ORDER BY r.name`);
    expect(regimens.rows).toEqual([
      { name: 'Amlodipine 5 mg', times: ['08:00'], num: 1, pods: 1 },
      { name: 'Atorvastatin 20 mg', times: ['21:00'], num: 1, pods: 1 },
      { name: 'Metformin 500 mg', times: ['07:30', '19:00'], num: 1, pods: 1 },
    ]);

    const file = await equipmentFileOf(db, ids[0]!);
    const storage = diskStorage(config.FILES_DIR!);
    const stored = await readText((await storage.open(file!.storage_key)).stream);
    const lines = stored.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'pod_number,fill_date,dose_time,pharmacy_patient_id,patient_last_name,patient_first_name,patient_dob,order_number,drug_name,strength,ndc,count,barcode',
    );
    expect(lines).toHaveLength(121);
    expect(lines[1]).toMatch(
      /^1,2026-12-07,07:30,PH-1002,Okafor,Maggie,1951-03-14,RX-240201,Metformin,500 mg,00093-1048-01,1,EXT\d{9}$/,
    );

    const tracking = await send('pharmacist', 'GET', routeUrl(c.tracking, { id: ids[0]! }));
    expect(tracking.json()).toMatchObject({
      status: 'finalized',
      equipment_file: { name: `pod_fill_${margaret}_${DAY}.csv`, rows: 120 },
      events: [expect.objectContaining({ from: 'verified', to: 'finalized' })],
    });
    expect((await send('stranger', 'GET', routeUrl(c.tracking, { id: ids[0]! }))).statusCode).toBe(404);
    // Twice: already finalized.
    expect(
      (
        await send('pharmacist', 'PUT', routeUrl(c.finalize, {}), {
          program_id: program,
          external_order_ids: ids,
        })
      ).statusCode,
    ).toBe(409);

    // A later export brings the shipment: the order moves on, the tracking shows it.
    const shipped = `order_number,pharmacy_patient_id,first_name,last_name,dob,drug_name,quantity,days_supply,sig,need_by_date,carrier,tracking_number,shipped_at
RX-240201,PH-1002,Maggie,Okafor,1951-03-14,Metformin,60,30,Take 1 tablet twice daily,2026-12-07,UPS,1Z999AA10123456784,2026-12-05
`;
    expect((await upload('pharmacist', shipped)).json()).toMatchObject({
      imported: 0,
      duplicates: 1,
      updated: 1,
    });
    const after = await send('pharmacist', 'GET', routeUrl(c.tracking, { id: ids[0]! }));
    expect(after.json()).toMatchObject({
      status: 'shipped',
      carrier: 'UPS',
      tracking_number: '1Z999AA10123456784',
      shipped_at: '2026-12-05T00:00:00.000Z',
    });
    expect(after.json().events.map((e: { to: string }) => e.to)).toEqual(['finalized', 'shipped']);
  });

  it("a refill of the same drug updates the patient's active regimen instead of adding one", async () => {
    const refill = `order_number,pharmacy_patient_id,first_name,last_name,dob,drug_name,strength,quantity,days_supply,sig,need_by_date,automation
RX-250201,PH-1002,Maggie,Okafor,1951-03-14,Metformin,500 mg,60,30,Take 1 tablet twice daily,2027-01-06,yes
`;
    expect((await upload('pharmacist', refill)).json()).toMatchObject({ imported: 1, matched: 1 });
    const day = '2027-01-06';
    const metformin = await db.execute<{ id: number }>(
      sql`SELECT id FROM regimens WHERE patient_id = ${margaret} AND name = 'Metformin 500 mg'`,
    );
    const regimenId = Number(metformin.rows[0]!.id);
    const review = await send(
      'pharmacist',
      'GET',
      routeUrl(c.regimens, { userId: margaret, needByDate: day }),
    );
    expect(review.json().regimens[0]).toMatchObject({
      updates_regimen_id: regimenId,
      times: ['08:00', '20:00'],
    });
    await send('pharmacist', 'PUT', routeUrl(c.fillFiles, { userId: margaret, needByDate: day }));
    await send('pharmacist', 'PUT', routeUrl(c.regimens, { userId: margaret, needByDate: day }), {});
    const [order] = await ordersOf({ date: day });
    const res = await send('pharmacist', 'PUT', routeUrl(c.finalize, {}), {
      program_id: program,
      external_order_ids: [order!.id],
    });
    expect(res.json()).toMatchObject({ regimen_ids: [regimenId], equipment_files: [{ rows: 60 }] });
    const after = await db.execute<{ n: number; times: string[]; end_at: string }>(sql`
      SELECT (SELECT count(*)::int FROM regimens WHERE patient_id = ${margaret}) AS n, times,
        to_char(end_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS end_at
      FROM regimens WHERE id = ${regimenId}`);
    expect(after.rows[0]).toEqual({ n: 3, times: ['08:00', '20:00'], end_at: '2027-02-05' });
  });

  it("keeps other programs' staff out and answers 404 or 422 for bad ids", async () => {
    const [order] = await ordersOf();
    expect((await send('stranger', 'GET', routeUrl(c.history, { orderId: order!.id }))).statusCode).toBe(404);
    expect((await send('pharmacist', 'GET', routeUrl(c.history, { orderId: 99999999 }))).statusCode).toBe(
      404,
    );
    expect((await send('stranger', 'GET', routeUrl(c.list, {}, { program_id: program }))).statusCode).toBe(
      404,
    );
    expect((await send('nurse', 'GET', routeUrl(c.list, {}, { program_id: program }))).statusCode).toBe(403);
    expect(
      (await send('stranger', 'GET', routeUrl(c.statuses, {}, { program_id: program }))).statusCode,
    ).toBe(404);
    expect((await upload('stranger', SAMPLE)).statusCode).toBe(404);
    expect((await upload('nurse', SAMPLE)).statusCode).toBe(403);
    expect(
      (
        await send('pharmacist', 'PUT', routeUrl(c.finalize, {}), {
          program_id: program,
          external_order_ids: ['x'],
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (
        await send('pharmacist', 'PUT', routeUrl(c.finalize, {}), {
          program_id: program,
          external_order_ids: [99999999],
        })
      ).statusCode,
    ).toBe(404);
    expect((await send('pharmacist', 'GET', `${routeUrl(c.list, {})}?program_id=abc`)).statusCode).toBe(422);
    expect(
      (await app.inject({ method: 'GET', url: routeUrl(c.list, {}, { program_id: program }) })).statusCode,
    ).toBe(401);
  });
});
