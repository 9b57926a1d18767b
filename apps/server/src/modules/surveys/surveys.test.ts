import { surveysContract as c, SURVEY_MESSAGES as M, routeUrl } from '@caredeck/contracts';
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
let programId = 0;
let otherProgram = 0;
let admin = '';
let physician = '';
let coordinator = '';
let pharma = '';
let outsider = '';

const send = (as: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: bearer(as) });

const frequency = (text: string) => ({
  text,
  kind: 'single',
  options: [
    { value: '0', label: 'Not at all', score: 0 },
    { value: '1', label: 'Several days', score: 1 },
    { value: '2', label: 'More than half the days', score: 2 },
    { value: '3', label: 'Nearly every day', score: 3 },
  ],
});
const PHQ = [
  frequency('Little interest or pleasure in doing things'),
  frequency('Feeling down, depressed, or hopeless'),
  frequency('Thoughts that you would be better off dead'),
  { text: 'Anything else you want us to know?', kind: 'text', required: false },
];

async function createSurvey(name: string, questions: unknown[] = PHQ, as = admin, program = programId) {
  const res = await send(as, 'POST', c.create.path, { program_id: program, name, questions });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as {
    id: number;
    version: number;
    questions: { id: number }[];
    triggers: { id: number; kind: string; question_id: number | null }[];
  };
}

beforeAll(async () => {
  const t = await testApp();
  app = t.app;
  db = t.db;
  const g = given(db);
  programId = (await g.program()).id;
  otherProgram = (await g.program()).id;
  const sign = async (
    programRoles: { programId: number; role: 'admin' | 'physician' | 'care_coordinator' | 'pharma' }[],
  ) =>
    (await signIn(app, (await g.admin({ hipaaConsented: true, programRoles })).email, FACTORY_PASSWORD))
      .token;
  admin = await sign([{ programId, role: 'admin' }]);
  physician = await sign([{ programId, role: 'physician' }]);
  coordinator = await sign([{ programId, role: 'care_coordinator' }]);
  pharma = await sign([{ programId, role: 'pharma' }]);
  outsider = await sign([{ programId: otherProgram, role: 'admin' }]);
});

describe('the survey library', () => {
  it('creates a survey with questions and triggers, keeps folders, a link, and versions its questions', async () => {
    const survey = await createSurvey('PHQ-3');
    expect(survey.questions).toHaveLength(4);
    // One score trigger, one per scorable question (not the text one); all off until a value is set.
    expect(survey.triggers.map((t) => t.kind)).toEqual(['score', 'question', 'question', 'question']);
    expect(
      (await send(coordinator, 'GET', routeUrl(c.list, undefined, { program_id: String(programId) }))).json()
        .data,
    ).toEqual(expect.arrayContaining([expect.objectContaining({ id: survey.id, max_score: 9, version: 1 })]));

    const folder = await send(coordinator, 'POST', c.createFolder.path, {
      program_id: programId,
      name: 'Mood',
    });
    expect(folder.json()).toMatchObject({ message: M.folderCreated, data: { name: 'Mood', surveys: 0 } });
    const folderId = folder.json().data.id as number;
    expect(
      (await send(coordinator, 'POST', c.createFolder.path, { program_id: programId, name: 'mood' })).json(),
    ).toMatchObject({ errors: { name: [M.folderNameTaken] } });
    const moved = await send(coordinator, 'PUT', routeUrl(c.moveToFolderPut, { s: String(survey.id) }), {
      folder_id: folderId,
    });
    expect(moved.json()).toMatchObject({ message: M.movedToFolder, data: { folder_id: folderId } });
    const inFolder = await send(
      coordinator,
      'GET',
      routeUrl(c.list, undefined, { program_id: String(programId), folder_id: String(folderId) }),
    );
    expect(inFolder.json().data.map((s: { id: number }) => s.id)).toEqual([survey.id]);
    expect(
      (
        await send(coordinator, 'PUT', c.updateFolder.path, { folder_id: folderId, name: 'Mood scales' })
      ).json(),
    ).toMatchObject({ message: M.folderUpdated, data: { name: 'Mood scales', surveys: 1 } });
    expect(
      (await send(coordinator, 'POST', routeUrl(c.removeFromFolder, { s: String(survey.id) }))).json().data
        .folder_id,
    ).toBeNull();
    expect(
      (
        await send(
          coordinator,
          'DELETE',
          routeUrl(c.deleteFolder, undefined, { folder_id: String(folderId) }),
        )
      ).json(),
    ).toEqual({ message: M.folderDeleted });

    const link = await send(admin, 'POST', routeUrl(c.updateLink, { s: String(survey.id) }), {
      url: 'https://forms.example.org/phq',
      analyse_url: 'https://forms.example.org/phq/results',
    });
    expect(link.json()).toMatchObject({ data: { url: 'https://forms.example.org/phq' } });
    // A new patient link alone keeps the analysis link.
    const relinked = await send(admin, 'POST', routeUrl(c.updateLink, { s: String(survey.id) }), {
      url: 'https://forms.example.org/phq9',
    });
    expect(relinked.json()).toMatchObject({
      data: { url: 'https://forms.example.org/phq9', analyse_url: 'https://forms.example.org/phq/results' },
    });
    expect(
      (await send(admin, 'POST', routeUrl(c.updateLink, { s: String(survey.id) }), { url: 'http://x.org' }))
        .statusCode,
    ).toBe(422);

    // Editing keeps a question's id (and its trigger), drops another, adds one: version 2.
    const [q1, , q3] = survey.questions;
    const edited = await send(admin, 'POST', routeUrl(c.questions, { s: String(survey.id) }), {
      questions: [{ ...PHQ[0], id: q1!.id }, { ...PHQ[2], id: q3!.id }, frequency('Trouble falling asleep')],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ version: 2, max_score: 9 });
    expect(
      edited
        .json()
        .data.questions.map((q: { id: number }) => q.id)
        .slice(0, 2),
    ).toEqual([q1!.id, q3!.id]);
    expect(
      edited.json().data.triggers.filter((t: { question_id: number | null }) => t.question_id === q3!.id),
    ).toHaveLength(1);
  });

  it('refuses bad surveys with 422, other programs with 404 and staff without a care role with 403', async () => {
    const bad = await send(admin, 'POST', c.create.path, {
      program_id: programId,
      name: '',
      questions: [{ text: 'Pick', kind: 'single', options: [{ value: 'a', label: 'A' }] }],
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(expect.arrayContaining(['name', 'questions.0.options']));
    const taken = await send(admin, 'POST', c.create.path, { program_id: programId, name: 'PHQ-3' });
    expect(taken.json()).toMatchObject({ errors: { name: [M.nameTaken] } });
    expect(
      (await send(outsider, 'GET', routeUrl(c.list, undefined, { program_id: String(programId) })))
        .statusCode,
    ).toBe(404);
    const survey = await createSurvey('Outsider check');
    expect(
      (await send(outsider, 'POST', routeUrl(c.questions, { s: String(survey.id) }), { questions: PHQ }))
        .statusCode,
    ).toBe(404);
    expect(
      (await send(pharma, 'POST', routeUrl(c.questions, { s: String(survey.id) }), { questions: PHQ }))
        .statusCode,
    ).toBe(403);
    expect((await send(pharma, 'POST', c.create.path, { program_id: programId, name: 'x' })).statusCode).toBe(
      403,
    );
    // A folder of another program is not a folder here.
    const foreign = await send(outsider, 'POST', c.createFolder.path, {
      program_id: otherProgram,
      name: 'Theirs',
    });
    const foreignId = foreign.json().data.id as number;
    expect(
      (
        await send(admin, 'PUT', routeUrl(c.moveToFolder, { s: String(survey.id) }), { folder_id: foreignId })
      ).json(),
    ).toMatchObject({ errors: { folder_id: [M.folderNotFound] } });
    expect(
      (await send(admin, 'PUT', c.updateFolder.path, { folder_id: foreignId, name: 'Mine' })).statusCode,
    ).toBe(404);
    expect(
      (await send(admin, 'DELETE', routeUrl(c.deleteFolder, undefined, { folder_id: String(foreignId) })))
        .statusCode,
    ).toBe(404);
  });
});

describe('assigning and answering', () => {
  it('assigns, refuses a second open assignment, records answers in progress, completes, scores and fires triggers', async () => {
    const g = given(db);
    const patient = await g.patient({ programId });
    const survey = await createSurvey('PHQ-3 triggers');
    const [score, selfHarm] = [
      survey.triggers[0]!,
      survey.triggers.find((t) => t.question_id === survey.questions[2]!.id)!,
    ];
    const trig = (t: { id: number; kind: string }, suffix = '') =>
      t.kind === 'score'
        ? `/api/v1/programs/${programId}/surveys/${survey.id}/triggers/${t.id}${suffix}`
        : `/api/v1/programs/${programId}/surveys/${survey.id}/triggers/questions/${t.id}${suffix}`;
    // On needs a value; coordinators do not set triggers; another program's path is 404.
    expect((await send(physician, 'PUT', trig(score, '/toggle'), { is_active: true })).statusCode).toBe(422);
    expect((await send(coordinator, 'PUT', trig(score), { value: 5 })).statusCode).toBe(403);
    expect(
      (
        await send(
          outsider,
          'PUT',
          `/api/v1/programs/${otherProgram}/surveys/${survey.id}/triggers/${score.id}`,
          { value: 5 },
        )
      ).statusCode,
    ).toBe(404);
    expect((await send(physician, 'PUT', trig(score), { value: 6 })).json()).toMatchObject({
      data: { value: 6, is_active: false },
    });
    expect(
      (await send(physician, 'PUT', trig(score, '/toggle'), { is_active: true })).json().data.is_active,
    ).toBe(true);
    await send(physician, 'PUT', trig(selfHarm), { value: 1 });
    await send(physician, 'PUT', trig(selfHarm, '/toggle'), { is_active: true });

    const assignUrl = routeUrl(c.assign, { id: String(patient.id), s: String(survey.id) });
    const assigned = await send(coordinator, 'POST', assignUrl, {
      admin_assign: true,
      reassign_after_days: 14,
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json()).toMatchObject({
      message: M.assigned,
      data: { status: 'open', admin_assign: true },
    });
    const assignmentId = assigned.json().data.id as number;
    expect((await send(coordinator, 'POST', assignUrl, {})).statusCode).toBe(409);
    const available = await send(
      coordinator,
      'GET',
      routeUrl(c.patientSurveys, { id: String(patient.id) }, { available: '1' }),
    );
    expect(available.json().data.map((s: { id: number }) => s.id)).not.toContain(survey.id);

    const respondUrl = routeUrl(c.respond, { id: String(patient.id), su: String(assignmentId) });
    const [a, b, cQ] = survey.questions;
    // In progress: what is given is kept.
    const partial = await send(coordinator, 'POST', respondUrl, {
      answers: [{ question_id: a!.id, value: '2' }],
      complete: false,
    });
    expect(partial.json()).toMatchObject({
      message: M.responseSaved,
      data: { status: 'in_progress', answered: 1 },
    });
    // Completing with a missing answer and a bad option: 422 naming both, nothing completed.
    const refused = await send(coordinator, 'POST', respondUrl, {
      answers: [
        { question_id: a!.id, value: '9' },
        { question_id: b!.id, value: '3' },
      ],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({
      'answers.0': [M.unknownOption],
      [`answers.q${a!.id}`]: [M.answerRequired],
      [`answers.q${cQ!.id}`]: [M.answerRequired],
    });
    const completed = await send(coordinator, 'POST', respondUrl, {
      answers: [
        { question_id: a!.id, value: '2' },
        { question_id: b!.id, value: '3' },
        { question_id: cQ!.id, value: '1' },
      ],
    });
    expect(completed.statusCode, completed.body).toBe(200);
    expect(completed.json().data).toMatchObject({
      status: 'completed',
      score: 6,
      max_score: 9,
      reassign_after_hours: 336,
      triggers: [
        { kind: 'score', value: 6, threshold: 6 },
        { kind: 'question', question_id: cQ!.id, value: 1, threshold: 1 },
      ],
    });
    expect(completed.json().data.answers[1]).toMatchObject({ display: 'Nearly every day', score: 3 });
    expect((await send(coordinator, 'POST', respondUrl, { answers: [] })).statusCode).toBe(409);

    // Reassigned in 14 days: scheduled; assigning again now is refused as already assigned.
    const list = (await send(pharma, 'GET', routeUrl(c.patientSurveys, { id: String(patient.id) }))).json()
      .data;
    expect(list.map((x: { status: string }) => x.status)).toEqual(['scheduled', 'completed']);
    expect(list[1]).toMatchObject({ score: 6, flagged: true });

    // Triggers and engagements of the patient.
    const hits = await send(
      pharma,
      'GET',
      `/api/v1/programs/${programId}/users/${patient.id}/surveys/triggers`,
    );
    expect(hits.json().data).toHaveLength(2);
    const engagements = await send(
      pharma,
      'GET',
      `/api/v1/programs/${programId}/users/${patient.id}/surveys/${survey.id}/engagements`,
    );
    expect(engagements.json().data.map((e: { kind: string }) => e.kind)).toEqual([
      'reassigned',
      'completed',
      'answered',
      'opened',
      'assigned',
    ]);
    expect(
      (await send(outsider, 'GET', `/api/v1/programs/${otherProgram}/users/${patient.id}/surveys/triggers`))
        .statusCode,
    ).toBe(404);

    // The card and the worklist.
    const card = (await send(pharma, 'GET', `/api/v1/programs/${programId}/surveys/${survey.id}/card`)).json()
      .data;
    expect(card).toMatchObject({
      assigned: 2,
      completed: 1,
      scheduled: 1,
      flagged: 1,
      average_score: 6,
      completion_rate: 100,
    });
    expect(card.score_bands.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(1);
    const work = await send(
      coordinator,
      'GET',
      routeUrl(c.worklist, { programId: String(programId) }, { status: 'flagged' }),
    );
    expect(work.json().data[0]).toMatchObject({
      id: assignmentId,
      patient: { id: patient.id },
      flagged: true,
    });
  });

  it("answers 'Assessment Already Completed' when a completed survey is not to be reassigned; unassigns open ones", async () => {
    const g = given(db);
    const patient = await g.patient({ programId });
    const survey = await createSurvey('Once only', [frequency('How often?')]);
    const url = routeUrl(c.assign, { id: String(patient.id), s: String(survey.id) });
    const id = (await send(coordinator, 'POST', url, {})).json().data.id as number;
    await send(coordinator, 'POST', routeUrl(c.respond, { id: String(patient.id), su: String(id) }), {
      answers: [{ question_id: survey.questions[0]!.id, value: '0' }],
    });
    const again = await send(coordinator, 'POST', url, {});
    expect(again.json()).toMatchObject({ message: M.alreadyCompleted, data: { id, status: 'completed' } });
    const forced = await send(coordinator, 'POST', url, {
      reassign_after_days: 30,
      scheduled_at: '2099-01-01T09:00:00Z',
    });
    expect(forced.json()).toMatchObject({ message: M.assigned, data: { status: 'scheduled' } });
    const del = routeUrl(c.unassign, { id: String(patient.id), s: String(survey.id) });
    expect((await send(coordinator, 'DELETE', del)).json()).toEqual({ message: M.unassigned });
    expect((await send(coordinator, 'DELETE', del)).statusCode).toBe(404);
    expect((await send(outsider, 'DELETE', del)).statusCode).toBe(404);
    // A survey of another program cannot be assigned here.
    const theirs = await createSurvey('Theirs', [frequency('Q')], outsider, otherProgram);
    expect(
      (
        await send(
          coordinator,
          'POST',
          routeUrl(c.assign, { id: String(patient.id), s: String(theirs.id) }),
          {},
        )
      ).statusCode,
    ).toBe(404);
  });

  it('assigns in bulk, skipping what is open or completed, and keeps private answers to their staff', async () => {
    const g = given(db);
    const [p1, p2] = [await g.patient({ programId }), await g.patient({ programId })];
    const survey = await createSurvey('Bulk', [frequency('How often?')]);
    await send(coordinator, 'POST', routeUrl(c.assign, { id: String(p1.id), s: String(survey.id) }), {});
    const bulk = await send(coordinator, 'POST', c.bulkAssign.path, {
      program_id: programId,
      survey_ids: [survey.id],
      user_ids: [p1.id, p2.id],
      is_private: true,
    });
    expect(bulk.json()).toEqual({
      message: M.bulkAssigned,
      assigned: 1,
      already_completed: 0,
      already_assigned: 1,
    });
    const foreign = await g.patient({ programId: otherProgram });
    expect(
      (
        await send(coordinator, 'POST', c.bulkAssign.path, {
          program_id: programId,
          survey_ids: [survey.id],
          user_ids: [foreign.id],
        })
      ).json(),
    ).toMatchObject({ errors: { user_ids: [M.patientsNotFound] } });

    const id = (await send(coordinator, 'GET', routeUrl(c.patientSurveys, { id: String(p2.id) }))).json()
      .data[0].id;
    await send(coordinator, 'POST', routeUrl(c.respond, { id: String(p2.id), su: String(id) }), {
      answers: [{ question_id: survey.questions[0]!.id, value: '3' }],
    });
    const mine = await send(
      coordinator,
      'GET',
      routeUrl(c.responses, { id: String(p2.id) }, { loadAnswers: '1' }),
    );
    expect(mine.json()).toMatchObject({ total: 1, data: [{ is_private: true, score: 3 }] });
    expect(mine.json().data[0].answers).toHaveLength(1);
    const theirs = await send(
      pharma,
      'GET',
      routeUrl(c.responses, { id: String(p2.id) }, { loadAnswers: '1' }),
    );
    expect(theirs.json().data[0].answers).toBeUndefined();
    expect(theirs.json().data[0].score).toBe(3);
    const one = await send(
      coordinator,
      'GET',
      routeUrl(c.assignmentResponses, { id: String(p2.id), su: String(id) }),
    );
    expect(one.json().data[0].answers[0]).toMatchObject({ display: 'Nearly every day' });
    expect(
      (await send(coordinator, 'GET', routeUrl(c.assignmentResponses, { id: String(p1.id), su: String(id) })))
        .statusCode,
    ).toBe(404);
  });
});

describe('survey alerts', () => {
  it('raises pending_assessments_alerts for an overdue assessment and completed_surveys_alerts for a flagged response', async () => {
    const g = given(db);
    const patient = await g.patient({ programId });
    const survey = await createSurvey('Alerting', [frequency('How often?')]);
    const trigger = survey.triggers[0]!;
    await send(
      physician,
      'PUT',
      `/api/v1/programs/${programId}/surveys/${survey.id}/triggers/${trigger.id}`,
      { value: 2 },
    );
    await send(
      physician,
      'PUT',
      `/api/v1/programs/${programId}/surveys/${survey.id}/triggers/${trigger.id}/toggle`,
      {
        is_active: true,
      },
    );
    const id = (
      await send(
        coordinator,
        'POST',
        routeUrl(c.assign, { id: String(patient.id), s: String(survey.id) }),
        {},
      )
    ).json().data.id as number;
    await db.execute(
      sql`UPDATE survey_assignments SET scheduled_at = now() - interval '4 days' WHERE id = ${id}`,
    );
    await app.alertEngine.sweep();
    const alerts = async (type: string) =>
      (
        await db.execute<{ status: string; summary: string }>(
          sql`SELECT status, summary FROM alerts WHERE patient_id = ${patient.id} AND type = ${type}`,
        )
      ).rows;
    expect(await alerts('pending_assessments_alerts')).toEqual([
      { status: 'open', summary: expect.stringContaining('Alerting not completed') },
    ]);
    await send(coordinator, 'POST', routeUrl(c.respond, { id: String(patient.id), su: String(id) }), {
      answers: [{ question_id: survey.questions[0]!.id, value: '3' }],
    });
    await app.alertEngine.sweep();
    expect((await alerts('pending_assessments_alerts'))[0]!.status).toBe('resolved');
    expect(await alerts('completed_surveys_alerts')).toEqual([
      { status: 'open', summary: 'Alerting completed with a score of 3: score 3 ≥ 2.' },
    ]);
  });
});
