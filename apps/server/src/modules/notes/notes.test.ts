import {
  alertsContract,
  notesContract as c,
  NOTE_MESSAGES as M,
  type RouteContract,
  routeUrl,
} from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
let db: Database;
const staff = { ann: { id: 0, token: '' }, ben: { id: 0, token: '' }, boss: { id: 0, token: '' } };
let outsider = '';
const program = { a: 0, other: 0 };
const patient = { a: 0, b: 0, foreign: 0 };

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const url = (contract: RouteContract, params?: Record<string, number>, query?: Record<string, string>) =>
  routeUrl(contract, params, query);
const call = (as: string, method: string, target: string, payload?: unknown) =>
  app.inject({ method: method as 'GET', url: target, payload: payload as object, headers: bearer(as) });

function form(fields: Record<string, string>, files: { name: string; bytes: Buffer }[] = []) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const file of files) f.append('files', new Blob([file.bytes]), file.name);
  return f;
}

const isoDay = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const count = async (table: string) =>
  Number((await db.execute<{ n: number }>(sql.raw(`SELECT count(*)::int AS n FROM ${table}`))).rows[0]!.n);

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  program.a = (await g.program()).id;
  program.other = (await g.program()).id;
  patient.a = (await g.patient({ programId: program.a })).id;
  patient.b = (await g.patient({ programId: program.a })).id;
  patient.foreign = (await g.patient({ programId: program.other })).id;
  const make = async (programId: number, role: 'care_coordinator' | 'admin' = 'care_coordinator') => {
    const admin = await g.admin({ hipaaConsented: true, programRoles: [{ programId, role }] });
    return { id: admin.id, token: (await signIn(app, admin.email, FACTORY_PASSWORD)).token };
  };
  staff.ann = await make(program.a);
  staff.ben = await make(program.a);
  staff.boss = await make(program.a, 'admin');
  outsider = (await make(program.other)).token;
});

describe('notes', () => {
  it('writes notes with files and a follow-up, lists them pinned first and pages them', async () => {
    const first = await app.inject({
      method: 'POST',
      url: url(c.create, { id: patient.a }),
      headers: bearer(staff.ann.token),
      payload: form(
        {
          body: 'Discussed the new inhaler technique.',
          follow_up_date: isoDay(-1),
          follow_up_admin_id: String(staff.ben.id),
        },
        [{ name: 'plan.pdf', bytes: PDF }],
      ),
    });
    expect(first.statusCode, first.body).toBe(201);
    const note = first.json().data;
    expect(first.json().message).toBe(M.created);
    expect(note).toMatchObject({
      body: 'Discussed the new inhaler technique.',
      author: { id: staff.ann.id },
      files: [{ file_name: 'plan.pdf', content_type: 'application/pdf', size: PDF.length }],
      follow_up: { date: isoDay(-1), admin: { id: staff.ben.id }, completed_at: null, due: true },
      internal: false,
      pinned: false,
      escalation: null,
    });
    const file = await call(staff.ben.token, 'GET', url(c.file, { id: note.id, fileId: note.files[0].id }));
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe("attachment; filename*=UTF-8''plan.pdf");

    for (let i = 1; i <= 3; i++)
      expect(
        (
          await call(staff.ben.token, 'POST', url(c.create, { id: patient.a }), {
            body: `Call ${i}`,
            internal: i === 2,
          })
        ).statusCode,
      ).toBe(201);
    const pinned = await call(staff.ben.token, 'POST', url(c.pin, { id: note.id }), {});
    expect(pinned.json()).toMatchObject({ message: M.pinned, data: { pinned: true } });

    const page1 = await call(staff.ann.token, 'GET', url(c.list, { id: patient.a }, { per_page: '2' }));
    expect(page1.statusCode).toBe(200);
    expect(page1.json()).toMatchObject({ current_page: 1, last_page: 2, per_page: 2, total: 4 });
    expect(page1.json().data.map((n: { body: string }) => n.body)).toEqual([
      'Discussed the new inhaler technique.',
      'Call 3',
    ]);
    const page2 = await call(
      staff.ann.token,
      'GET',
      url(c.list, { id: patient.a }, { per_page: '2', page: '2' }),
    );
    expect(page2.json().data.map((n: { body: string; internal: boolean }) => [n.body, n.internal])).toEqual([
      ['Call 2', true],
      ['Call 1', false],
    ]);

    // The calendar: notes written or followed up in the days asked.
    const calendar = await call(
      staff.ann.token,
      'GET',
      url(c.list, { id: patient.a }, { forCalendar: '1', start_date: isoDay(-3), end_date: isoDay(-1) }),
    );
    expect(calendar.json().data.map((n: { id: number }) => n.id)).toEqual([note.id]);
    expect(calendar.json()).toMatchObject({ total: 1, last_page: 1 });
    expect(
      (
        await call(
          staff.ann.token,
          'GET',
          url(c.list, { id: patient.a }, { forCalendar: '1', start_date: isoDay(0), end_date: isoDay(-5) }),
        )
      ).statusCode,
    ).toBe(422);

    // The next follow-up and the pending follow-up alert.
    const next = await call(
      staff.ann.token,
      'GET',
      url(c.nextFollowUp, { programId: program.a, userId: patient.a }),
    );
    expect(next.json().data).toMatchObject({ id: note.follow_up.id, date: isoDay(-1) });
    await app.alertEngine.sweep();
    const tile = async () =>
      (
        (
          await call(
            staff.ann.token,
            'GET',
            url(alertsContract.groups, {}, { program_id: String(program.a) }),
          )
        ).json().data as { type: string; count: number }[]
      ).find((t) => t.type === 'follow_ups_pending')?.count;
    expect(await tile()).toBe(1);

    const moved = await call(staff.ann.token, 'POST', url(c.updateFollowUp, { id: note.follow_up.id }), {
      date: isoDay(7),
      adminId: staff.ann.id,
    });
    expect(moved.json()).toMatchObject({ message: M.followUpUpdated, data: { date: isoDay(7), due: false } });
    await app.alertEngine.sweep();
    expect(await tile()).toBe(0);
    const done = await call(staff.ben.token, 'POST', url(c.completeFollowUp, { id: note.follow_up.id }));
    expect(done.json()).toMatchObject({
      message: M.followUpCompleted,
      data: { completed_by: { id: staff.ben.id } },
    });
    expect(
      (await call(staff.ben.token, 'POST', url(c.completeFollowUp, { id: note.follow_up.id }))).statusCode,
    ).toBe(409);
    expect(
      (
        await call(staff.ann.token, 'GET', url(c.nextFollowUp, { programId: program.a, userId: patient.a }))
      ).json().data,
    ).toBeNull();

    const log = await call(staff.ann.token, 'GET', url(c.logs, { id: note.id }));
    expect(log.json().data.map((l: { action: string }) => l.action)).toEqual([
      'created',
      'follow_up_set',
      'pinned',
      'follow_up_changed',
      'follow_up_completed',
    ]);
  });

  it('answers bad notes with field errors and stores nothing', async () => {
    const before = await count('notes');
    const empty = await call(staff.ann.token, 'POST', url(c.create, { id: patient.b }), { body: '   ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({ body: [M.empty] });
    const stranger = await call(staff.ann.token, 'POST', url(c.create, { id: patient.b }), {
      body: 'x',
      follow_up_date: isoDay(1),
      follow_up_admin_id: 999_999,
    });
    expect(stranger.json().errors).toEqual({ follow_up_admin_id: [M.followUpAdmin] });
    const noDate = await call(staff.ann.token, 'POST', url(c.create, { id: patient.b }), {
      body: 'x',
      follow_up_admin_id: staff.ben.id,
    });
    expect(noDate.json().errors).toEqual({ follow_up_date: [M.followUpDate] });
    // A JSON note is strict like every body (ADR 070): a field the note does not take is named, not dropped.
    const stray = await call(staff.ann.token, 'POST', url(c.create, { id: patient.b }), {
      body: 'x',
      pinned: true,
    });
    expect(stray.statusCode).toBe(422);
    expect(stray.json().errors).toEqual({ pinned: ['This field is not accepted.'] });
    const files = await count('note_files');
    const exe = await app.inject({
      method: 'POST',
      url: url(c.create, { id: patient.b }),
      headers: bearer(staff.ann.token),
      payload: form({ body: 'x' }, [{ name: 'a.pdf', bytes: Buffer.from('MZ\x90\x00\x03binary') }]),
    });
    expect(exe.statusCode).toBe(422);
    expect(await count('notes')).toBe(before);
    expect(await count('note_files')).toBe(files);
  });

  it("keeps a note's text to its author, with the earlier versions, and deletes by author or admin", async () => {
    const made = await call(staff.ann.token, 'POST', url(c.create, { id: patient.b }), {
      body: 'BP 150/95 at home',
      escalate: true,
    });
    const id = made.json().data.id as number;
    expect(made.json().data.escalation).toMatchObject({ active: true, by: { id: staff.ann.id } });
    expect((await call(staff.ben.token, 'PUT', url(c.update, { id }), { body: 'changed' })).statusCode).toBe(
      403,
    );
    const edited = await call(staff.ann.token, 'PUT', url(c.update, { id }), {
      body: 'BP 150/95 at home, twice',
    });
    expect(edited.json()).toMatchObject({
      message: M.updated,
      data: { body: 'BP 150/95 at home, twice', edits: 1 },
    });
    const edits = await call(staff.ben.token, 'GET', url(c.edits, { id }));
    expect(edits.json().data).toEqual([
      expect.objectContaining({ body: 'BP 150/95 at home', edited_by: expect.any(Object) }),
    ]);

    const escalated = await call(staff.ben.token, 'GET', url(c.list, { id: patient.b }, { escalated: '1' }));
    expect(escalated.json().data.map((n: { id: number }) => n.id)).toEqual([id]);
    const off = await call(staff.ben.token, 'PUT', url(c.escalations, { id }), { active: false });
    expect(off.json()).toMatchObject({
      message: M.escalationOff,
      data: { escalation: { active: false, inactivated_by: { id: staff.ben.id } } },
    });
    expect(
      (await call(staff.ben.token, 'GET', url(c.list, { id: patient.b }, { escalated: '1' }))).json().total,
    ).toBe(0);
    const internal = await call(staff.ben.token, 'POST', url(c.internal, { id }), { internal: true });
    expect(internal.json()).toMatchObject({ message: M.internal, data: { internal: true } });

    // Another program's staff: 404 for the patient, the note and the follow-up alike.
    expect((await call(outsider, 'GET', url(c.list, { id: patient.b }))).statusCode).toBe(404);
    expect((await call(outsider, 'GET', url(c.logs, { id }))).statusCode).toBe(404);
    expect((await call(outsider, 'DELETE', url(c.remove, { id }))).statusCode).toBe(404);
    expect((await call(staff.ann.token, 'GET', url(c.list, { id: patient.foreign }))).statusCode).toBe(404);
    expect(
      (
        await call(
          staff.ann.token,
          'GET',
          url(c.nextFollowUp, { programId: program.a, userId: patient.foreign }),
        )
      ).statusCode,
    ).toBe(404);
    expect((await app.inject({ method: 'GET', url: url(c.list, { id: patient.b }) })).statusCode).toBe(401);

    expect((await call(staff.ben.token, 'DELETE', url(c.remove, { id }))).statusCode).toBe(403);
    const removed = await call(staff.boss.token, 'DELETE', url(c.remove, { id }));
    expect(removed.json()).toEqual({ message: M.deleted });
    expect((await call(staff.ann.token, 'GET', url(c.logs, { id }))).statusCode).toBe(404);
    const left = await call(staff.ann.token, 'GET', url(c.list, { id: patient.b }));
    expect(left.json().data.map((n: { id: number }) => n.id)).not.toContain(id);
  });

  it('keeps an image the patient texted as an image note, and refuses other files', async () => {
    const made = await app.inject({
      method: 'POST',
      url: url(c.imageNote, { programId: program.a, patientId: patient.b }),
      headers: bearer(staff.ann.token),
      payload: form({ body: 'Photo of the pill organiser' }, [{ name: 'organiser.png', bytes: PNG }]),
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({
      message: M.imageNoteCreated,
      data: { kind: 'sms_image', files: [{ content_type: 'image/png' }] },
    });
    const pdf = await app.inject({
      method: 'POST',
      url: url(c.imageNote, { programId: program.a, patientId: patient.b }),
      headers: bearer(staff.ann.token),
      payload: form({}, [{ name: 'scan.pdf', bytes: PDF }]),
    });
    expect(pdf.statusCode).toBe(422);
    expect(pdf.json().errors.files).toEqual([M.imageType]);
    const none = await call(
      staff.ann.token,
      'POST',
      url(c.imageNote, { programId: program.a, patientId: patient.b }),
      {
        body: 'no image',
      },
    );
    expect(none.json().errors).toEqual({ files: [M.imageRequired] });
    // Another program's patient through this program's path: 404 before the upload is judged, whatever it holds.
    for (const file of [
      { name: 'organiser.png', bytes: PNG },
      { name: 'scan.pdf', bytes: PDF },
    ]) {
      const foreign = await app.inject({
        method: 'POST',
        url: url(c.imageNote, { programId: program.a, patientId: patient.foreign }),
        headers: bearer(staff.ann.token),
        payload: form({ body: 'not ours' }, [file]),
      });
      expect(foreign.statusCode, foreign.body).toBe(404);
    }
  });
});
