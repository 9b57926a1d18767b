import { pipelinesContract as c, PIPELINE_MESSAGES as M, routeUrl, rulesContract } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';
import { createPatients } from '../patients/patients.factories';

let app: App;
let db: Database;
let programId = 0;
let otherProgram = 0;
let admin = '';
let coordinator = '';
let pharma = '';
let outsider = '';
let seq = 1;

const send = (as: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: bearer(as) });
const P = (extra: Record<string, string> = {}) => ({ programId: String(programId), ...extra });

async function createPipeline(name: string, stages = ['Referred', 'Onboarding', 'Monitoring']) {
  const res = await send(coordinator, 'POST', routeUrl(c.create, P()), {
    name,
    stages: stages.map((s) => ({ name: s })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; stages: { id: number; name: string }[] };
}

beforeAll(async () => {
  const t = await testApp();
  app = t.app;
  db = t.db;
  const g = given(db);
  programId = (await g.program()).id;
  otherProgram = (await g.program()).id;
  const sign = async (programRoles: { programId: number; role: 'admin' | 'care_coordinator' | 'pharma' }[]) =>
    (await signIn(app, (await g.admin({ hipaaConsented: true, programRoles })).email, FACTORY_PASSWORD))
      .token;
  admin = await sign([{ programId, role: 'admin' }]);
  coordinator = await sign([{ programId, role: 'care_coordinator' }]);
  pharma = await sign([{ programId, role: 'pharma' }]);
  outsider = await sign([{ programId: otherProgram, role: 'admin' }]);
});

describe('pipeline board at any size (issue 27)', () => {
  it('shows the longest-waiting 100 of every stage, with each stage’s count, past the old 2,000 cap', async () => {
    const pipeline = await createPipeline('Board at scale', ['Waiting', 'Enrolled']);
    const [waiting, enrolled] = pipeline.stages;
    const many = await createPatients(
      db,
      Array.from({ length: 2100 }, (_, i) => ({ programId, lastName: `Wait ${String(i).padStart(4, '0')}` })),
    );
    const few = await createPatients(
      db,
      Array.from({ length: 5 }, (_, i) => ({ programId, lastName: `Enrolled ${i}` })),
    );
    // Everyone waiting arrived before anyone enrolled: one cap over the board ordered by arrival left
    // the second stage empty.
    await db.execute(sql`
      INSERT INTO pipeline_patients (pipeline_id, patient_id, stage_id, added_at, moved_at)
      SELECT ${pipeline.id}, id, ${waiting!.id}, '2026-01-01'::timestamptz + n * interval '1 minute',
             '2026-01-01'::timestamptz + n * interval '1 minute'
      FROM unnest(${`{${many.join(',')}}`}::bigint[]) WITH ORDINALITY AS t(id, n)`);
    await db.execute(sql`
      INSERT INTO pipeline_patients (pipeline_id, patient_id, stage_id, added_at, moved_at)
      SELECT ${pipeline.id}, id, ${enrolled!.id}, '2026-06-01', '2026-06-01'
      FROM unnest(${`{${few.join(',')}}`}::bigint[]) AS t(id)`);
    const board = (await send(pharma, 'GET', routeUrl(c.get, P({ pipeline_id: String(pipeline.id) })))).json()
      .data as {
      users_count: number;
      stages: { id: number; users: number }[];
      users: { stage_id: number; patient: { id: number } }[];
    };
    expect(board.users_count).toBe(2105);
    expect(board.stages.map((s) => s.users)).toEqual([2100, 5]);
    const inStage = (id: number) => board.users.filter((u) => u.stage_id === id).map((u) => u.patient.id);
    expect(inStage(waiting!.id)).toEqual(many.slice(0, 100));
    expect(inStage(enrolled!.id)).toEqual(few);
    const last = await send(
      pharma,
      'GET',
      routeUrl(c.stageUsers, P({ pipeline_id: String(pipeline.id), stage_id: String(waiting!.id) }), {
        page: '21',
        per_page: '100',
      }),
    );
    expect(last.json()).toMatchObject({ total: 2100, last_page: 21 });
    expect(last.json().data.map((u: { patient: { id: number } }) => u.patient.id)).toEqual(many.slice(2000));
  });
});

describe('pipelines', () => {
  it('creates a pipeline, adds patients, moves one, keeps its history and logs, and completes it into another', async () => {
    const g = given(db);
    const [a, b] = [await g.patient({ programId }), await g.patient({ programId })];
    const pipeline = await createPipeline('Hypertension onboarding');
    const [referred, onboarding, monitoring] = pipeline.stages;
    const added = await send(
      coordinator,
      'POST',
      routeUrl(c.addUsers, { pipeline_id: String(pipeline.id) }),
      {
        user_ids: [a.id, b.id],
      },
    );
    expect(added.json()).toEqual({ message: M.usersAdded, added: 2, already: 0 });
    expect(
      (
        await send(coordinator, 'POST', routeUrl(c.addUsers, { pipeline_id: String(pipeline.id) }), {
          user_ids: [a.id],
        })
      ).json(),
    ).toMatchObject({ added: 0, already: 1 });

    const moveUrl = routeUrl(c.move, { pipeline_id: String(pipeline.id), u: String(a.id) });
    const moved = await send(coordinator, 'PUT', moveUrl, { to_id: onboarding!.id });
    expect(moved.json()).toMatchObject({
      message: M.moved,
      data: { stage_id: onboarding!.id, patient: { id: a.id } },
    });
    expect((await send(coordinator, 'PUT', moveUrl, { to_id: onboarding!.id })).json()).toMatchObject({
      errors: { to_id: [M.sameStage] },
    });
    const foreignStage = (await createPipeline('Other')).stages[0]!.id;
    expect((await send(coordinator, 'PUT', moveUrl, { to_id: foreignStage })).statusCode).toBe(422);
    await send(coordinator, 'PUT', moveUrl, { to_id: monitoring!.id });

    const board = (await send(pharma, 'GET', routeUrl(c.get, P({ pipeline_id: String(pipeline.id) })))).json()
      .data;
    expect(board.stages.map((s: { users: number }) => s.users)).toEqual([1, 0, 1]);
    expect(board.users.map((u: { patient: { id: number } }) => u.patient.id).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    const stay = await send(
      pharma,
      'GET',
      routeUrl(c.history, { pipeline_id: String(pipeline.id), u: String(a.id) }),
    );
    expect(stay.json().data.map((s: { stage: { name: string } }) => s.stage.name)).toEqual([
      'Referred',
      'Onboarding',
      'Monitoring',
    ]);
    const logs = await send(
      pharma,
      'GET',
      routeUrl(c.logs, { pipeline_id: String(pipeline.id), u: String(a.id) }),
    );
    expect(logs.json().data.map((l: { kind: string }) => l.kind)).toEqual(['moved', 'moved', 'added']);
    const stageUsers = await send(
      pharma,
      'GET',
      routeUrl(c.stageUsers, P({ pipeline_id: String(pipeline.id), stage_id: String(referred!.id) })),
    );
    expect(stageUsers.json()).toMatchObject({ total: 1, data: [{ patient: { id: b.id } }] });

    // Complete into the next pipeline: the patient lands in its first stage.
    const next = await createPipeline('Long-term monitoring', ['Monthly review']);
    const done = await send(
      coordinator,
      'PUT',
      routeUrl(c.complete, P({ pipeline_id: String(pipeline.id), userId: String(a.id) })),
      { new_pipeline_id: next.id },
    );
    expect(done.json()).toEqual({ message: M.completed });
    const mine = (
      await send(pharma, 'GET', routeUrl(c.userPipelines, undefined, { user_id: String(a.id) }))
    ).json().data;
    expect(
      mine.map((m: { pipeline: { name: string }; status: string }) => [m.pipeline.name, m.status]),
    ).toEqual([
      ['Long-term monitoring', 'active'],
      ['Hypertension onboarding', 'completed'],
    ]);
    const all = await send(
      pharma,
      'GET',
      routeUrl(c.allUserPipelines, undefined, { program_id: String(programId) }),
    );
    expect(all.json().total).toBeGreaterThanOrEqual(3);
  });

  it('keeps stages in order, refuses to delete a stage with patients, and sets a patient’s pipelines', async () => {
    const g = given(db);
    const patient = await g.patient({ programId });
    const pipeline = await createPipeline('Stages', ['One', 'Two']);
    const stagesUrl = routeUrl(c.createStage, { pipeline_id: String(pipeline.id) });
    const first = await send(coordinator, 'POST', stagesUrl, { name: 'Zero', position: 1 });
    expect(first.json()).toMatchObject({ message: M.stageCreated, data: { name: 'Zero', position: 1 } });
    expect((await send(coordinator, 'POST', stagesUrl, { name: 'zero' })).json()).toMatchObject({
      errors: { name: [M.stageNameTaken] },
    });
    const listed = await send(pharma, 'GET', routeUrl(c.stages, { pipeline_id: String(pipeline.id) }));
    expect(listed.json().data.map((s: { name: string }) => s.name)).toEqual(['Zero', 'One', 'Two']);
    const two = pipeline.stages[1]!;
    const stageUrl = routeUrl(c.updateStage, { pipeline_id: String(pipeline.id), stage_id: String(two.id) });
    await send(coordinator, 'PUT', stageUrl, { color: '#2f9e44' });
    const moved = await send(coordinator, 'PUT', stageUrl, { position: 1, name: 'Second' });
    // Renamed and moved, it keeps its colour.
    expect(moved.json().data).toMatchObject({ name: 'Second', color: '#2f9e44' });
    expect(
      (await send(pharma, 'GET', routeUrl(c.stages, { pipeline_id: String(pipeline.id) })))
        .json()
        .data.map((s: { name: string }) => s.name),
    ).toEqual(['Second', 'Zero', 'One']);

    const set = await send(coordinator, 'POST', routeUrl(c.setUserPipelines, { id: String(patient.id) }), {
      pipelines: [pipeline.id],
    });
    expect(set.json().data).toEqual([
      expect.objectContaining({ stage: { id: two.id, name: 'Second' }, status: 'active' }),
    ]);
    const del = routeUrl(c.deleteStage, { pipeline_id: String(pipeline.id), stage_id: String(two.id) });
    expect((await send(coordinator, 'DELETE', del)).json()).toMatchObject({
      errors: { stage_id: [M.stageNotEmpty] },
    });
    await send(coordinator, 'POST', routeUrl(c.setUserPipelines, { id: String(patient.id) }), {
      pipelines: [],
    });
    expect((await send(coordinator, 'DELETE', del)).json()).toEqual({ message: M.stageDeleted });
    expect(
      (
        await send(
          pharma,
          'GET',
          routeUrl(c.logs, { pipeline_id: String(pipeline.id), u: String(patient.id) }),
        )
      ).json().data[0].kind,
    ).toBe('removed');
  });

  it('builds from templates, uploads a CSV of MRNs and ids, and downloads real spreadsheets', async () => {
    const g = given(db);
    const tpl = await send(coordinator, 'POST', c.createTemplate.path, {
      program_id: programId,
      name: 'Three steps',
      stages: [{ name: 'Call' }, { name: 'Visit' }, { name: 'Follow' }],
    });
    expect(tpl.statusCode).toBe(201);
    const fromTemplate = await send(coordinator, 'POST', routeUrl(c.create, P()), {
      name: 'From template',
      template_id: tpl.json().data.id,
    });
    expect(fromTemplate.json().data.stages.map((s: { name: string }) => s.name)).toEqual([
      'Call',
      'Visit',
      'Follow',
    ]);
    expect(
      (await send(coordinator, 'POST', routeUrl(c.create, P()), { name: 'No stages' })).json(),
    ).toMatchObject({
      errors: { stages: [M.stagesRequired] },
    });
    const id = fromTemplate.json().data.id as number;

    const [p1, p2] = [await g.patient({ programId }), await g.patient({ programId })];
    await db.execute(sql`UPDATE patients SET mrn = ${`MRN-PL-${p1.id}`} WHERE id = ${p1.id}`);
    const boundary = 'caredeckcsv';
    const csv = `mrn\nMRN-PL-${p1.id}\n${p2.id}\nMRN-NOPE\n`;
    const upload = await app.inject({
      method: 'POST',
      url: routeUrl(c.bulkUpload, { pipeline_id: String(id) }),
      headers: { ...bearer(coordinator), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="patients.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
    });
    expect(upload.json()).toEqual({ message: M.usersAdded, added: 2, already: 0, not_found: ['MRN-NOPE'] });

    const file = await send(pharma, 'GET', routeUrl(c.download, P({ pipeline_id: String(id) })));
    expect(file.headers['content-disposition']).toBe('attachment; filename="pipeline_report.xls"');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    expect(book.getWorksheet('Patients')!.rowCount).toBe(3);
    const stages = await send(pharma, 'GET', routeUrl(c.stagesDownload, { pipeline_id: String(id) }));
    expect(stages.headers['content-disposition']).toBe('attachment; filename="pipeline_stage_report.xls"');
    const stageBook = new ExcelJS.Workbook();
    await stageBook.xlsx.load(stages.rawPayload as unknown as ArrayBuffer);
    expect(stageBook.getWorksheet('Stages')!.getRow(2).values).toEqual([
      undefined,
      1,
      'Call',
      2,
      2,
      expect.any(Number),
    ]);
  });

  it('moves a patient into the stage whose pre-stage rule raised an alert', async () => {
    const g = given(db);
    const patient = await g.patient({ programId });
    const scale = await g.device({ programId, patientId: patient.id, kind: 'scale' });
    await app.deviceGateway.ingestor.submitAsync({
      deviceId: scale.id,
      seq: seq++,
      type: 'measurement',
      at: Date.now() - 3600_000,
      payload: { m: [{ type: 'weight', value: 131, unit: 'kg' }] },
    });
    const pipeline = await createPipeline('Weight watch', ['Watching', 'Dietitian']);
    const dietitian = pipeline.stages[1]!;
    const rule = await send(admin, 'POST', rulesContract.create.path, {
      program_id: programId,
      name: 'Weight above 130',
      observable: 'weight',
      criterion: { comparison: '>', value: 130, aggregation: 'latest', window_minutes: 1440 },
      outcome: { type: 'raise_alert', alert_type: 'out_range_pulse_ox_alerts' },
      active: true,
    });
    const ruleId = rule.json().data.id as number;
    const assign = `/api/v1/rules/assign-pre-stage-rule/${dietitian.id}/rule/${ruleId}`;
    expect((await send(coordinator, 'POST', assign)).statusCode).toBe(403);
    expect((await send(outsider, 'POST', assign)).statusCode).toBe(404);
    expect((await send(admin, 'POST', assign)).json()).toMatchObject({
      message: M.ruleAssigned,
      data: { id: dietitian.id, rule: { id: ruleId, name: 'Weight above 130' } },
    });
    const rules = await send(
      pharma,
      'GET',
      routeUrl(c.stageRules, undefined, { program_id: String(programId) }),
    );
    expect(rules.json().data).toContainEqual(
      expect.objectContaining({ stage: { id: dietitian.id, name: 'Dietitian' } }),
    );

    await app.alertEngine.sweep();
    const mine = (
      await send(pharma, 'GET', routeUrl(c.userPipelines, undefined, { user_id: String(patient.id) }))
    ).json().data;
    expect(mine).toEqual([expect.objectContaining({ stage: { id: dietitian.id, name: 'Dietitian' } })]);
    const logs = await send(
      pharma,
      'GET',
      routeUrl(c.logs, { pipeline_id: String(pipeline.id), u: String(patient.id) }),
    );
    expect(logs.json().data[0]).toMatchObject({ kind: 'rule_moved', by: null, detail: { rule_id: ruleId } });
    expect(
      (await send(admin, 'DELETE', `/api/v1/rules/assign-pre-stage-rule/${dietitian.id}/rule/delete`)).json(),
    ).toMatchObject({ message: M.ruleRemoved, data: { rule: null } });
    await send(admin, 'DELETE', routeUrl(rulesContract.remove, { id: String(ruleId) }));
  });

  it('answers 404 for another program’s pipelines and 403 to staff who may not change them', async () => {
    const pipeline = await createPipeline('Private');
    const foreignPatient = await given(db).patient({ programId: otherProgram });
    expect(
      (await send(outsider, 'GET', routeUrl(c.stages, { pipeline_id: String(pipeline.id) }))).statusCode,
    ).toBe(404);
    expect(
      (await send(outsider, 'GET', `/api/v1/programs/${otherProgram}/pipelines/${pipeline.id}`)).statusCode,
    ).toBe(404);
    expect(
      (
        await send(coordinator, 'POST', routeUrl(c.addUsers, { pipeline_id: String(pipeline.id) }), {
          user_ids: [foreignPatient.id],
        })
      ).json(),
    ).toMatchObject({ errors: { user_ids: [M.patientsNotFound] } });
    expect(
      (
        await send(pharma, 'POST', routeUrl(c.createStage, { pipeline_id: String(pipeline.id) }), {
          name: 'X',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await send(pharma, 'DELETE', routeUrl(c.remove, P({ pipeline_id: String(pipeline.id) })))).statusCode,
    ).toBe(403);
    expect(
      (
        await send(
          outsider,
          'GET',
          routeUrl(c.allUserPipelines, undefined, { program_id: String(programId) }),
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await send(coordinator, 'POST', routeUrl(c.create, P()), { name: 'Private', stages: [{ name: 'A' }] })
      ).json(),
    ).toMatchObject({ errors: { name: [M.nameTaken] } });
    const removed = await send(admin, 'DELETE', routeUrl(c.remove, P({ pipeline_id: String(pipeline.id) })));
    expect(removed.json()).toEqual({ message: M.deleted });
    expect(
      (await send(admin, 'DELETE', routeUrl(c.remove, P({ pipeline_id: String(pipeline.id) })))).statusCode,
    ).toBe(404);
  });
});
