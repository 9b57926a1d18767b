import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportsContract as c, REPORT_MESSAGES as M, routeUrl } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { startSftpServer, type TestSftpServer } from '../../test/sftp-server';
import { FACTORY_PASSWORD } from '../identity/identity.factories';
import { csvCell, csvOf } from './files';
import { periodOf } from './reports.service';

let app: App;
let db: Database;
let enterprise = 0;
let otherEnterprise = 0;
let program = 0;
let foreignProgram = 0;
const patients = { ann: 0, bob: 0, foreign: 0 };
const tokens: Record<string, string> = {};
let sftp: TestSftpServer;
let sftpRoot = '';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const send = (as: string, method: Method, url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: bearer(tokens[as]!) });
const P = () => ({ programId: program });
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** Runs the background runner until nothing is left to do. */
async function runDue() {
  let total = 0;
  for (let n = await app.reportRunner.runDue(); n > 0; n = await app.reportRunner.runDue()) total += n;
  return total;
}

async function workbook(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  return wb;
}

beforeAll(async () => {
  const t = await testApp();
  app = t.app;
  db = t.db;
  const g = given(db);
  enterprise = (await g.enterprise()).id;
  otherEnterprise = (await g.enterprise()).id;
  program = (await g.program({ enterpriseId: enterprise, name: 'Reports Heart' })).id;
  foreignProgram = (await g.program({ enterpriseId: otherEnterprise })).id;
  const make = async (key: string, input: Parameters<typeof g.admin>[0]) => {
    const a = await g.admin({ hipaaConsented: true, ...input });
    tokens[key] = (await signIn(app, a.email, FACTORY_PASSWORD)).token;
  };
  await make('nurse', { programRoles: [{ programId: program, role: 'care_coordinator' }] });
  await make('nurse2', { programRoles: [{ programId: program, role: 'care_coordinator' }] });
  await make('pharma', { programRoles: [{ programId: program, role: 'pharma' }] });
  await make('boss', { enterpriseAdminOf: [enterprise] });
  await make('stranger', { programRoles: [{ programId: foreignProgram, role: 'admin' }] });
  patients.ann = (await g.patient({ programId: program, firstName: 'Ann', lastName: 'Adams' })).id;
  patients.bob = (
    await g.patient({ programId: program, firstName: '=HYPERLINK("x")', lastName: 'Brown' })
  ).id;
  patients.foreign = (await g.patient({ programId: foreignProgram, lastName: 'Elsewhere' })).id;
  // Ann takes every 08:00 dose of the last 10 days; Bob takes none of his.
  const start = new Date(Date.now() - 10 * 86_400_000);
  for (const [patient, take] of [
    [patients.ann, true],
    [patients.bob, false],
  ] as const) {
    const regimen = await g.regimen({
      patientId: patient,
      programId: program,
      name: 'Lisinopril 10 mg',
      times: ['08:00'],
      scheduledAt: start.toISOString(),
    });
    if (take) {
      const doses = Array.from({ length: 9 }, (_, i) => {
        const d = new Date(start.getTime() + (i + 1) * 86_400_000);
        return `${d.toISOString().slice(0, 10)}T13:00:00Z`;
      });
      await g.doses({ patientId: patient, regimenId: regimen.id, at: doses });
    }
  }
  sftpRoot = await mkdtemp(join(tmpdir(), 'caredeck-sftp-'));
  sftp = await startSftpServer(sftpRoot, 'drop', 'drop-secret');
});

afterAll(async () => {
  await sftp?.close();
  if (sftpRoot) await rm(sftpRoot, { recursive: true, force: true });
});

describe('report types and requests', () => {
  it('offers care types to the care team and pharma types to pharma staff', async () => {
    const care = (await send('nurse', 'GET', routeUrl(c.types, P()))).json();
    expect(care.data.map((t: { type: string }) => t.type)).toEqual([
      'patient_roster',
      'adherence_summary',
      'readings_summary',
      'alerts_summary',
      'billing_summary',
    ]);
    const pharma = (await send('pharma', 'GET', routeUrl(c.types, P()))).json();
    expect(pharma.data.map((t: { type: string }) => t.type)).toEqual(['pharma_adherence', 'pharma_regimens']);
    expect((await send('stranger', 'GET', routeUrl(c.types, P()))).statusCode).toBe(404);
  });

  it('generates an adherence report in the background and serves it as a real workbook', async () => {
    const res = await send('nurse', 'POST', routeUrl(c.create, P()), {
      type: 'adherence_summary',
      period: 'custom',
      start: day(-12),
      end: day(0),
    });
    expect(res.statusCode).toBe(201);
    const report = res.json();
    expect(report).toMatchObject({ type: 'adherence_summary', recurrence: 'none', url: null });
    expect(report.runs[0]).toMatchObject({ status: 'queued' });
    expect(await runDue()).toBeGreaterThanOrEqual(1);
    const detail = (await send('nurse', 'GET', routeUrl(c.get, { ...P(), reportId: report.id }))).json();
    expect(detail.last_run).toMatchObject({ status: 'done', rows: 2 });
    expect(detail.url).toMatch(/\/runs\/\d+\/file$/);
    expect(detail.last_run.file_name).toMatch(
      /^adherence_summary_\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_report\.xlsx$/,
    );
    const file = await send('nurse', 'GET', detail.url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('attachment');
    const sheet = (await workbook(file.rawPayload)).getWorksheet('Adherence')!;
    const rows = sheet.getSheetValues().slice(2) as unknown[][];
    const ann = rows.find((r) => String(r[1]).startsWith('Adams'))!;
    const bob = rows.find((r) => String(r[1]).startsWith('Brown'))!;
    // Columns: name, MRN, due, on time, late, missed, skipped, adherence, compliance, extra.
    expect(Number(ann[8])).toBeGreaterThan(80);
    expect(Number(bob[8])).toBe(0);
    // Another program's staff cannot fetch the file.
    expect((await send('stranger', 'GET', detail.url)).statusCode).toBe(404);
  });

  it('writes CSV that a spreadsheet cannot run as a formula', async () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell(12.5)).toBe('12.5');
    const res = await send('nurse', 'POST', routeUrl(c.create, P()), {
      type: 'patient_roster',
      format: 'csv',
      period: 'last_30_days',
    });
    await runDue();
    const detail = (await send('nurse', 'GET', routeUrl(c.get, { ...P(), reportId: res.json().id }))).json();
    const text = (await send('nurse', 'GET', detail.url)).body;
    expect(text.split('\r\n')[0]).toContain('MRN,Last name,First name');
    expect(text).toContain(`"'=HYPERLINK(""x"")"`);
    expect(text).toContain('Adams,Ann');
    expect(csvOf({ title: '', sheet: '', heading: [], columns: [], rows: [] })).toBe('\r\n');
  });

  it('answers 422 for bad requests and keeps nothing', async () => {
    const before = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM reports`);
    const bad = await send('nurse', 'POST', routeUrl(c.create, P()), {
      type: 'adherence_summary',
      period: 'custom',
      recurrence: 'weekly',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toMatchObject({
      start: [M.datesNeeded],
      end: [M.datesNeeded],
      recurrence: [M.customRecurring],
    });
    const reversed = await send('nurse', 'POST', routeUrl(c.create, P()), {
      type: 'adherence_summary',
      period: 'custom',
      start: day(0),
      end: day(-3),
    });
    expect(reversed.json().errors).toEqual({ end: [M.periodOrder] });
    const pharmaHere = await send('nurse', 'POST', routeUrl(c.create, P()), { type: 'pharma_adherence' });
    expect(pharmaHere.json().errors).toEqual({ type: [M.wrongAudience] });
    const noDestination = await send('nurse', 'POST', routeUrl(c.create, P()), {
      type: 'patient_roster',
      destination_id: 999_999,
    });
    expect(noDestination.statusCode).toBe(422);
    const after = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM reports`);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('gives pharma staff per-medication reports without patient identifiers, and only those', async () => {
    expect(
      (await send('pharma', 'POST', routeUrl(c.create, P()), { type: 'patient_roster' })).statusCode,
    ).toBe(403);
    const res = await send('pharma', 'POST', routeUrl(c.createPharma, P()), {
      type: 'pharma_adherence',
      period: 'custom',
      start: day(-12),
      end: day(0),
    });
    expect(res.statusCode).toBe(201);
    await runDue();
    const detail = (await send('pharma', 'GET', routeUrl(c.get, { ...P(), reportId: res.json().id }))).json();
    const sheet = (await workbook((await send('pharma', 'GET', detail.url)).rawPayload)).getWorksheet(
      'Medications',
    )!;
    const rows = sheet.getSheetValues().slice(2) as unknown[][];
    expect(rows).toHaveLength(1);
    expect(rows[0]![1]).toBe('Lisinopril 10 mg');
    expect(rows[0]![2]).toBe(2);
    const all = JSON.stringify(sheet.getSheetValues());
    expect(all).not.toContain('Adams');
    // Pharma staff list pharma reports only; the care team lists both.
    const pharmaList = (await send('pharma', 'GET', routeUrl(c.list, P()))).json();
    expect(pharmaList.data.every((r: { audience: string }) => r.audience === 'pharma')).toBe(true);
    const careReport = (await send('nurse', 'GET', routeUrl(c.list, P())))
      .json()
      .data.find((r: { audience: string }) => r.audience === 'care');
    expect(
      (await send('pharma', 'GET', routeUrl(c.get, { ...P(), reportId: careReport.id }))).statusCode,
    ).toBe(404);
  });

  it('lists reports ten to a page by default, filtered by author and type', async () => {
    for (let i = 0; i < 9; i++)
      await send('nurse2', 'POST', routeUrl(c.create, P()), { type: 'alerts_summary', name: `Weekly ${i}` });
    const first = (await send('nurse', 'GET', routeUrl(c.list, P()))).json();
    expect(first.per_page).toBe(10);
    expect(first.data).toHaveLength(10);
    expect(first.total).toBeGreaterThan(10);
    const mine = (await send('nurse', 'GET', `${routeUrl(c.list, P())}?type=alerts_summary`)).json();
    expect(mine.total).toBe(9);
    const nurse2 = mine.data[0].user.id;
    const byUser = (
      await send('nurse', 'GET', `${routeUrl(c.list, P())}?user_id=${nurse2}&per_page=5&page=2`)
    ).json();
    expect(byUser).toMatchObject({ current_page: 2, per_page: 5, total: 9 });
    expect(byUser.data).toHaveLength(4);
  });
});

describe('recurrence', () => {
  it('pauses, resumes and stops a recurring report through its enterprise; queues due runs once', async () => {
    const res = await send('nurse', 'POST', routeUrl(c.create, P()), {
      type: 'readings_summary',
      recurrence: 'weekly',
      period: 'last_7_days',
    });
    const report = res.json();
    expect(report.recurrence_state).toBe('running');
    expect(Date.parse(report.next_run_at)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    const ids = { enterpriseId: enterprise, reportId: report.id };
    // Another nurse may not steer it; the author and the enterprise admin may; another enterprise's path is 404.
    expect((await send('nurse2', 'POST', routeUrl(c.pause, ids))).statusCode).toBe(403);
    expect(
      (await send('stranger', 'POST', routeUrl(c.pause, { ...ids, enterpriseId: otherEnterprise })))
        .statusCode,
    ).toBe(404);
    const paused = await send('nurse', 'POST', routeUrl(c.pause, ids));
    expect(paused.json()).toMatchObject({ message: M.paused, report: { recurrence_state: 'paused' } });
    const resumed = await send('boss', 'POST', routeUrl(c.pause, ids));
    expect(resumed.json()).toMatchObject({ message: M.resumed, report: { recurrence_state: 'running' } });
    // Three weeks overdue: one run, and the next run moves past now.
    await db.execute(
      sql`UPDATE reports SET next_run_at = now() - interval '20 days' WHERE id = ${report.id}`,
    );
    await runDue();
    const detail = (await send('nurse', 'GET', routeUrl(c.get, { ...P(), reportId: report.id }))).json();
    expect(detail.runs).toHaveLength(2);
    expect(detail.runs.every((r: { status: string }) => r.status === 'done')).toBe(true);
    expect(Date.parse(detail.next_run_at)).toBeGreaterThan(Date.now());
    const stopped = await send('nurse', 'POST', routeUrl(c.stop, ids));
    expect(stopped.json()).toMatchObject({
      message: M.stopped,
      report: { recurrence_state: 'stopped', next_run_at: null },
    });
    expect((await send('nurse', 'POST', routeUrl(c.pause, ids))).statusCode).toBe(409);
    const once = (await send('nurse', 'POST', routeUrl(c.create, P()), { type: 'patient_roster' })).json();
    const oneOff = await send(
      'nurse',
      'POST',
      routeUrl(c.pause, { enterpriseId: enterprise, reportId: once.id }),
    );
    expect(oneOff.statusCode).toBe(409);
    expect(oneOff.json().message).toBe(M.notRecurring);
  });

  it('computes preset periods from the day of the run', () => {
    const at = Date.parse('2026-03-15T15:00:00Z');
    expect(periodOf('last_7_days', null, null, at)).toEqual({ start: '2026-03-09', end: '2026-03-15' });
    expect(periodOf('last_month', null, null, at)).toEqual({ start: '2026-02-01', end: '2026-02-28' });
    expect(periodOf('last_30_days', null, null, at)).toEqual({ start: '2026-02-14', end: '2026-03-15' });
  });
});

describe('SFTP destinations and delivery', () => {
  let destination = 0;
  let broken = 0;

  it('lets the enterprise admin add destinations (passwords never returned)', async () => {
    const url = routeUrl(c.createDestination, { enterpriseId: enterprise });
    const body = {
      name: 'Payer drop',
      host: '127.0.0.1',
      port: sftp.port,
      username: 'drop',
      password: 'drop-secret',
      directory: 'in',
    };
    expect((await send('nurse', 'POST', url, body)).statusCode).toBe(403);
    expect((await send('stranger', 'POST', url, body)).statusCode).toBe(404);
    const bad = await send('boss', 'POST', url, { ...body, host: 'bad host!', directory: '../etc' });
    expect(Object.keys(bad.json().errors).sort()).toEqual(['directory', 'host']);
    const res = await send('boss', 'POST', url, body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).not.toHaveProperty('password');
    destination = res.json().id;
    broken = (await send('boss', 'POST', url, { ...body, name: 'Wrong password', password: 'nope' })).json()
      .id;
    const list = (await send('nurse', 'GET', routeUrl(c.destinations, { enterpriseId: enterprise }))).json();
    expect(list.data.map((d: { name: string }) => d.name)).toEqual(['Payer drop', 'Wrong password']);
    const stored = await db.execute<{ sealed_password: string }>(
      sql`SELECT sealed_password FROM report_destinations WHERE id = ${destination}`,
    );
    expect(stored.rows[0]!.sealed_password).not.toContain('drop-secret');
  });

  it('delivers a finished report to the SFTP server, and lists and retries a failed delivery', async () => {
    await import('node:fs/promises').then((fs) => fs.mkdir(join(sftpRoot, 'in'), { recursive: true }));
    const good = (
      await send('nurse', 'POST', routeUrl(c.create, P()), {
        type: 'patient_roster',
        destination_id: destination,
      })
    ).json();
    const bad = (
      await send('nurse', 'POST', routeUrl(c.create, P()), { type: 'patient_roster', destination_id: broken })
    ).json();
    await runDue();
    const delivered = (await send('nurse', 'GET', routeUrl(c.get, { ...P(), reportId: good.id }))).json();
    expect(delivered.last_run).toMatchObject({ status: 'done', delivery: 'sent' });
    const files = await readdir(join(sftpRoot, 'in'));
    expect(files).toContain(delivered.last_run.file_name);
    const book = await workbook(await readFile(join(sftpRoot, 'in', delivered.last_run.file_name)));
    expect(book.getWorksheet('Patients')!.rowCount).toBe(3);

    const failed = (
      await send('nurse', 'GET', `${routeUrl(c.failed, { ...P(), reportId: bad.id })}?type=delivery`)
    ).json();
    expect(failed.data).toHaveLength(1);
    expect(failed.data[0]).toMatchObject({ status: 'done', delivery: 'failed' });
    expect(failed.data[0].delivery_error).toBeTruthy();
    expect(failed.data[0].delivery_error).not.toContain('nope');
    // Fix the destination's password, then retry: delivered.
    await db.execute(sql`UPDATE reports SET destination_id = ${destination} WHERE id = ${bad.id}`);
    const retry = await send(
      'nurse',
      'GET',
      `${routeUrl(c.retry, { ...P(), reportId: bad.id })}?type=delivery`,
    );
    expect(retry.json()).toEqual({ message: M.retried, retried: 1 });
    await runDue();
    const fixed = (await send('nurse', 'GET', routeUrl(c.get, { ...P(), reportId: bad.id }))).json();
    expect(fixed.last_run.delivery).toBe('sent');
    expect(fixed.failed_runs).toBe(0);
    const nothing = await send('nurse', 'GET', routeUrl(c.retry, { ...P(), reportId: bad.id }));
    expect(nothing.statusCode).toBe(409);
  });

  it("pins the server's host key at the first delivery and sends nothing to a server with another key", async () => {
    const list = async () =>
      (await send('nurse', 'GET', routeUrl(c.destinations, { enterpriseId: enterprise }))).json().data as {
        id: number;
        host_key: string | null;
      }[];
    // The first delivery above pinned the key the server presented.
    expect((await list()).find((d) => d.id === destination)?.host_key).toBe(sftp.hostKey);

    // Another server at the destination's address (the same account), with a key of its own.
    const otherRoot = await mkdtemp(join(tmpdir(), 'caredeck-sftp-other-'));
    const other = await startSftpServer(otherRoot, 'drop', 'drop-secret');
    try {
      await db.execute(sql`UPDATE report_destinations SET port = ${other.port} WHERE id = ${destination}`);
      const report = (
        await send('nurse', 'POST', routeUrl(c.create, P()), {
          type: 'patient_roster',
          destination_id: destination,
        })
      ).json();
      await runDue();
      const failed = (
        await send('nurse', 'GET', `${routeUrl(c.failed, { ...P(), reportId: report.id })}?type=delivery`)
      ).json();
      expect(failed.data[0].delivery_error).toContain('host key has changed');
      expect(failed.data[0].delivery_error).toContain(other.hostKey);
      expect(await readdir(otherRoot)).toEqual([]);
      await import('node:fs/promises').then((fs) => fs.mkdir(join(otherRoot, 'in')));

      // The admin trusts the re-keyed server; the retry is delivered there.
      const keyUrl = routeUrl(c.setDestinationHostKey, {
        enterpriseId: enterprise,
        destinationId: destination,
      });
      expect((await send('nurse', 'PUT', keyUrl, { host_key: other.hostKey })).statusCode).toBe(403);
      const badKey = await send('boss', 'PUT', keyUrl, { host_key: 'MD5:aa:bb' });
      expect(badKey.statusCode).toBe(422);
      expect(badKey.json().errors.host_key).toBeDefined();
      const trusted = await send('boss', 'PUT', keyUrl, { host_key: other.hostKey });
      expect(trusted.statusCode).toBe(200);
      expect(trusted.json().host_key).toBe(other.hostKey);
      const foreign = routeUrl(c.setDestinationHostKey, { enterpriseId: enterprise, destinationId: 999_999 });
      expect((await send('boss', 'PUT', foreign, { host_key: null })).statusCode).toBe(404);
      await send('nurse', 'GET', `${routeUrl(c.retry, { ...P(), reportId: report.id })}?type=delivery`);
      await runDue();
      const detail = (await send('nurse', 'GET', routeUrl(c.get, { ...P(), reportId: report.id }))).json();
      expect(detail.last_run.delivery).toBe('sent');
    } finally {
      await db.execute(sql`UPDATE report_destinations SET port = ${sftp.port}, host_key = ${sftp.hostKey}
        WHERE id = ${destination}`);
      await other.close();
      await rm(otherRoot, { recursive: true, force: true });
    }
  });

  it('takes up an upload that was cut off (a crash mid-delivery) and marks a run sent only once uploaded', async () => {
    const report = (
      await send('nurse', 'POST', routeUrl(c.create, P()), {
        type: 'patient_roster',
        destination_id: destination,
      })
    ).json();
    // Generated, then claimed by a process that died during the upload.
    await db.execute(sql`UPDATE reports SET destination_id = NULL WHERE id = ${report.id}`);
    await runDue();
    await db.execute(sql`UPDATE reports SET destination_id = ${destination} WHERE id = ${report.id}`);
    await db.execute(sql`UPDATE report_runs SET delivery = 'sending', delivery_started_at = now()
      WHERE report_id = ${report.id}`);
    await runDue();
    const during = (await send('nurse', 'GET', routeUrl(c.get, { ...P(), reportId: report.id }))).json();
    expect(during.last_run.delivery).toBe('sending');
    await db.execute(sql`UPDATE report_runs SET delivery_started_at = now() - interval '11 minutes'
      WHERE report_id = ${report.id}`);
    await runDue();
    const after = (await send('nurse', 'GET', routeUrl(c.get, { ...P(), reportId: report.id }))).json();
    expect(after.last_run.delivery).toBe('sent');
    expect(await readdir(join(sftpRoot, 'in'))).toContain(after.last_run.file_name);
  });

  it('retries a failed generation', async () => {
    const report = (await send('nurse', 'POST', routeUrl(c.create, P()), { type: 'alerts_summary' })).json();
    await db.execute(
      sql`UPDATE report_runs SET status = 'failed', error = 'disk full' WHERE report_id = ${report.id}`,
    );
    const failed = (await send('nurse', 'GET', routeUrl(c.failed, { ...P(), reportId: report.id }))).json();
    expect(failed.data[0]).toMatchObject({ status: 'failed', error: 'disk full' });
    const retry = await send(
      'nurse',
      'GET',
      `${routeUrl(c.retry, { ...P(), reportId: report.id })}?type=generation`,
    );
    expect(retry.json().retried).toBe(1);
    await runDue();
    const detail = (await send('nurse', 'GET', routeUrl(c.get, { ...P(), reportId: report.id }))).json();
    expect(detail.last_run).toMatchObject({ status: 'done', attempts: 1, error: null });
  });

  it('sends an uploaded file to a destination at once', async () => {
    const url = routeUrl(c.sftpFile, { enterpriseId: enterprise });
    const boundary = '----caredeck';
    const form = (fields: Record<string, string>, file?: { name: string; body: string }) => {
      const parts = Object.entries(fields).map(
        ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
      );
      if (file)
        parts.push(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n${file.body}\r\n`,
        );
      return `${parts.join('')}--${boundary}--\r\n`;
    };
    const post = (as: string, payload: string) =>
      app.inject({
        method: 'POST',
        url,
        payload,
        headers: { ...bearer(tokens[as]!), 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
    const ok = await post(
      'boss',
      form({ report_destination_id: String(destination) }, { name: 'claims.csv', body: 'a,b\r\n1,2\r\n' }),
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ message: M.uploaded, remote_path: '/in/claims.csv', bytes: 10 });
    expect(await readFile(join(sftpRoot, 'in', 'claims.csv'), 'utf8')).toBe('a,b\r\n1,2\r\n');
    const noDestination = await post('boss', form({}, { name: 'x.csv', body: '1' }));
    expect(noDestination.json().errors).toHaveProperty('report_destination_id');
    const unknown = await post(
      'boss',
      form({ report_destination_id: '999999' }, { name: 'x.csv', body: '1' }),
    );
    expect(unknown.statusCode).toBe(422);
    const refused = await post(
      'boss',
      form({ report_destination_id: String(broken) }, { name: 'x.csv', body: '1' }),
    );
    expect(refused.statusCode).toBe(502);
    expect(
      (
        await post(
          'nurse',
          form({ report_destination_id: String(destination) }, { name: 'x.csv', body: '1' }),
        )
      ).statusCode,
    ).toBe(403);
  });

  it('removes a destination; its reports fall back to download only', async () => {
    const url = routeUrl(c.deleteDestination, { enterpriseId: enterprise, destinationId: broken });
    expect((await send('nurse', 'DELETE', url)).statusCode).toBe(403);
    expect((await send('boss', 'DELETE', url)).statusCode).toBe(204);
    expect((await send('boss', 'DELETE', url)).statusCode).toBe(404);
  });
});

describe('patient reports', () => {
  it("generates one patient's PDF with their adherence and lists it", async () => {
    const res = await send(
      'nurse',
      'POST',
      routeUrl(c.generatePatientReport, { ...P(), userId: patients.ann }),
      {},
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: M.pdfQueued,
      report: { kind: 'patient_pdf', status: 'queued' },
    });
    await runDue();
    const list = (
      await send('nurse', 'GET', routeUrl(c.patientReports, { ...P(), userId: patients.ann }))
    ).json();
    expect(list.data[0]).toMatchObject({ status: 'done', patient_id: patients.ann });
    const pdf = await send('nurse', 'GET', list.data[0].url);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const dir = await mkdtemp(join(tmpdir(), 'caredeck-pdf-'));
    await writeFile(join(dir, 'r.pdf'), pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', join(dir, 'r.pdf'), '-'], { encoding: 'utf8' });
    await rm(dir, { recursive: true, force: true });
    expect(text).toContain('Adams, Ann');
    expect(text).toContain('Lisinopril 10 mg');
    // Another program's patient, or this patient from another program: 404.
    expect(
      (
        await send(
          'nurse',
          'POST',
          routeUrl(c.generatePatientReport, { ...P(), userId: patients.foreign }),
          {},
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await send(
          'stranger',
          'GET',
          routeUrl(c.patientReports, { programId: foreignProgram, userId: patients.ann }),
        )
      ).statusCode,
    ).toBe(404);
  });

  it("generates the program's patients on one PDF with the literal null", async () => {
    const res = await send(
      'nurse',
      'POST',
      routeUrl(c.generatePatientReport, { ...P(), userId: 'null' }),
      {},
    );
    expect(res.json().report.kind).toBe('patients_pdf');
    await runDue();
    const list = (await send('nurse', 'GET', routeUrl(c.patientReports, { ...P(), userId: 'null' }))).json();
    expect(list.data[0]).toMatchObject({ kind: 'patients_pdf', status: 'done', rows: 2 });
  });

  it('generates the patients CSV in the background: one at a time, cancellable, checkable', async () => {
    expect((await send('nurse2', 'POST', routeUrl(c.checkCsv, P()))).json()).toEqual({ report: null });
    const first = (await send('nurse2', 'POST', routeUrl(c.generateCsv, P()), {})).json();
    expect(first).toMatchObject({
      message: M.csvStarted,
      report: { kind: 'patients_csv', status: 'queued' },
    });
    const again = (await send('nurse2', 'POST', routeUrl(c.generateCsv, P()), {})).json();
    expect(again.report.id).toBe(first.report.id);
    // Someone else cannot cancel it; the requester can; a cancelled one is never generated.
    const cancelUrl = routeUrl(c.cancelCsv, { ...P(), id: first.report.id });
    expect((await send('nurse', 'POST', cancelUrl)).statusCode).toBe(404);
    expect((await send('nurse2', 'POST', cancelUrl)).json()).toMatchObject({
      message: M.csvCancelled,
      report: { status: 'cancelled' },
    });
    expect((await send('nurse2', 'POST', cancelUrl)).statusCode).toBe(409);
    await runDue();
    expect((await send('nurse2', 'POST', routeUrl(c.checkCsv, P()))).json().report.status).toBe('cancelled');
    const second = (await send('nurse2', 'POST', routeUrl(c.generateCsv, P()), {})).json();
    await runDue();
    const checked = (await send('nurse2', 'POST', routeUrl(c.checkCsv, P()))).json().report;
    expect(checked).toMatchObject({ id: second.report.id, status: 'done', rows: 2 });
    const csv = (await send('nurse2', 'GET', checked.url)).body;
    expect(csv.split('\r\n')[0]).toBe(
      'Patient,MRN,Date of birth,Status,Physician,Adherence %,Compliance %,Missed doses,Readings,Open alerts',
    );
    expect(csv).toContain('"Adams, Ann"');
  });
});

describe('GET users/download', () => {
  it("downloads the program's patients as a stamped workbook; other programs 404", async () => {
    const res = await send('nurse', 'GET', routeUrl(c.download, {}, { program_id: program }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/patients_\d{4}_\d{2}_\d{2}_\d{2}_\d{2}_report\.xlsx/);
    expect((await workbook(res.rawPayload)).getWorksheet('Patients')!.rowCount).toBe(3);
    expect(
      (await send('stranger', 'GET', routeUrl(c.download, {}, { program_id: program }))).statusCode,
    ).toBe(404);
    expect((await send('pharma', 'GET', routeUrl(c.download, {}, { program_id: program }))).statusCode).toBe(
      403,
    );
  });
});
