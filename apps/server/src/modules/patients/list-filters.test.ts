import { patientsContract as c, routeUrl } from '@caredeck/contracts';
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
let token = '';
let me = 0;
let colleague = 0;
let programId = 0;
let enterpriseId = 0;
const ids: Record<string, number> = {};

/** Five patients of one program, each made to match a different filter. */
beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  enterpriseId = (await g.enterprise()).id;
  programId = (await g.program({ enterpriseId })).id;
  const admin = await g.admin({
    hipaaConsented: true,
    programRoles: [{ programId, role: 'care_coordinator' }],
  });
  me = admin.id;
  colleague = (await g.admin({ programRoles: [{ programId, role: 'physician' }] })).id;
  token = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  const make = async (key: string, input: Parameters<typeof g.patient>[0]) => {
    ids[key] = (await g.patient(input)).id;
  };
  await make('mine', { programId, lastName: 'Mine', sex: 'female', state: 'PA', assignedAdminId: me });
  await make('theirs', {
    programId,
    lastName: 'Theirs',
    sex: 'male',
    state: 'NJ',
    assignedAdminId: colleague,
  });
  await make('pending', { programId, lastName: 'Pending', sex: 'female', status: 'pending', race: 'Asian' });
  await make('discharged', {
    programId,
    lastName: 'Gone',
    sex: 'other',
    status: 'discharged',
    ethnicity: 'Hispanic',
  });
  await make('diabetic', { programId, lastName: 'Sugar', sex: 'male', dob: '1950-06-01' });
  await db.execute(sql`UPDATE patients SET income = '25-50k', physician_id = ${colleague}, mrn = 'MRN-THEIRS'
    WHERE id = ${ids.theirs}`);
  await db.execute(sql`INSERT INTO disease_states (patient_id, program_id, conditions)
    VALUES (${ids.diabetic}, ${programId}, '[{"code":"E11.9","description":"Type 2 diabetes mellitus"}]')`);
  await g.group({ programId, name: 'Morning calls', patientIds: [ids.mine!, ids.pending!] });
});

async function list(query: Record<string, string>, path: 'list' | 'listV2' = 'list') {
  const res = await app.inject({
    method: 'GET',
    url: routeUrl(c[path], { programId }, { per_page: '100', ...query }),
    headers: bearer(token),
  });
  return res;
}
async function names(query: Record<string, string>, path: 'list' | 'listV2' = 'list') {
  const res = await list(query, path);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { data: { last_name: string }[]; total: number };
  expect(body.total).toBe(body.data.length);
  return body.data.map((p) => p.last_name).sort();
}

describe('patient list filters (01 §7)', () => {
  it('narrows by status, sex, race, ethnicity, income and state, lists comma-separated', async () => {
    expect(await names({ statuses: 'pending,discharged' })).toEqual(['Gone', 'Pending']);
    expect(await names({ sex: 'female' })).toEqual(['Mine', 'Pending']);
    expect(await names({ sex: 'female', statuses: 'active' })).toEqual(['Mine']);
    expect(await names({ race: 'Asian' })).toEqual(['Pending']);
    expect(await names({ ethnicity: 'Hispanic' })).toEqual(['Gone']);
    expect(await names({ income: '25-50k' })).toEqual(['Theirs']);
    expect(await names({ state: 'PA,NJ' })).toEqual(['Mine', 'Theirs']);
    expect(await names({ states: 'NJ' }, 'listV2')).toEqual(['Theirs']);
  });

  it('finds the patients assigned to me, to a colleague, or to nobody', async () => {
    expect(await names({ assignedAdmin: 'me' })).toEqual(['Mine']);
    expect(await names({ assignedAdmin: String(colleague) })).toEqual(['Theirs']);
    expect(await names({ assignedAdmin: 'none' })).toEqual(['Gone', 'Pending', 'Sugar']);
  });

  it('filters by cohort, active flag, physician and disease state (code prefix or name)', async () => {
    const [group] = (
      await db.execute<{ id: number }>(sql`SELECT id FROM groups WHERE program_id = ${programId}`)
    ).rows;
    expect(await names({ group: String(group!.id) })).toEqual(['Mine', 'Pending']);
    expect(await names({ active: '0' })).toEqual(['Gone', 'Pending']);
    expect(await names({ physicians: String(colleague) }, 'listV2')).toEqual(['Theirs']);
    expect(await names({ disease_state: 'E11' })).toEqual(['Sugar']);
    expect(await names({ disease_state: 'I10' })).toEqual([]);
  });

  it('returns the MRN and age a monitoring team works from', async () => {
    const res = await list({ name: 'Theirs' });
    expect(res.json().data[0]).toMatchObject({ mrn: 'MRN-THEIRS' });
    const sugar = (await list({ name: 'Sugar' })).json().data[0];
    const years =
      new Date().getFullYear() - 1950 - (new Date() < new Date(new Date().getFullYear(), 5, 1) ? 1 : 0);
    expect(sugar.age).toBe(years);
  });

  it('answers 422 with the field for a bad filter', async () => {
    const bad = await list({ statuses: 'active,asleep' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).join()).toMatch(/^statuses/);
    const flag = await list({ follow_up: 'today' }, 'listV2');
    expect(flag.statusCode).toBe(422);
    expect(Object.keys(flag.json().errors)).toEqual(['follow_up']);
    expect((await list({ follow_up_for: 'someday' }, 'listV2')).statusCode).toBe(422);
    expect((await list({ assessment_type: 'lost' }, 'listV2')).statusCode).toBe(422);
    expect((await list({ assignedAdmin: 'someone' })).statusCode).toBe(422);
  });

  it('filters on escalations, pipelines, follow-ups and assessments (v2)', async () => {
    // Mine: in a pipeline, a follow-up due today for me, an overdue assessment. Theirs: an escalated alert,
    // a completed and flagged assessment. Pending: an active note escalation.
    const pipeline = await db.execute<{ id: number }>(sql`
      INSERT INTO pipelines (program_id, name) VALUES (${programId}, 'Filters') RETURNING id`);
    const pipelineId = pipeline.rows[0]!.id;
    const stage = await db.execute<{ id: number }>(sql`
      INSERT INTO pipeline_stages (pipeline_id, name, position) VALUES (${pipelineId}, 'One', 1) RETURNING id`);
    await db.execute(sql`INSERT INTO pipeline_patients (pipeline_id, patient_id, stage_id)
      VALUES (${pipelineId}, ${ids.mine}, ${stage.rows[0]!.id})`);
    const note = await db.execute<{ id: number }>(sql`
      INSERT INTO notes (program_id, patient_id, body, author_id) VALUES (${programId}, ${ids.mine}, 'Call back', ${me})
      RETURNING id`);
    await db.execute(sql`INSERT INTO follow_ups (note_id, program_id, patient_id, due_date, admin_id)
      VALUES (${note.rows[0]!.id}, ${programId}, ${ids.mine}, current_date, ${me})`);
    await db.execute(sql`INSERT INTO notes (program_id, patient_id, body, author_id, escalated_at, escalation_active)
      VALUES (${programId}, ${ids.pending}, 'Escalate', ${me}, now(), true)`);
    await db.execute(sql`INSERT INTO alerts (program_id, patient_id, type, condition_key, first_at, last_at, summary, reason, status)
      VALUES (${programId}, ${ids.theirs}, 'missed_doses', '', now(), now(), 'Missed', '{"summary":"Missed"}', 'escalated')`);
    const survey = await db.execute<{ id: number }>(sql`
      INSERT INTO surveys (program_id, name) VALUES (${programId}, 'PHQ') RETURNING id`);
    const surveyId = survey.rows[0]!.id;
    await db.execute(sql`INSERT INTO survey_assignments (program_id, survey_id, patient_id, scheduled_at)
      VALUES (${programId}, ${surveyId}, ${ids.mine}, now() - interval '5 days')`);
    const done = await db.execute<{ id: number }>(sql`
      INSERT INTO survey_assignments (program_id, survey_id, patient_id, status, completed_at)
      VALUES (${programId}, ${surveyId}, ${ids.theirs}, 'completed', now()) RETURNING id`);
    await db.execute(sql`INSERT INTO survey_responses (assignment_id, survey_id, patient_id, program_id, version, status,
        score, triggers, completed_at)
      VALUES (${done.rows[0]!.id}, ${surveyId}, ${ids.theirs}, ${programId}, 1, 'completed', 12,
        '[{"trigger_id":1,"kind":"score","question_id":null,"question":null,"value":12,"threshold":10}]', now())`);

    const v2 = (q: Record<string, string>) => names(q, 'listV2');
    expect(await v2({ escalation: '1' })).toEqual(['Pending', 'Theirs']);
    expect(await v2({ pipelines: String(pipelineId) })).toEqual(['Mine']);
    expect(await v2({ patientType: 'enrolled' })).toEqual(['Gone', 'Pending', 'Sugar', 'Theirs']);
    expect(await v2({ follow_up: '1' })).toEqual(['Mine']);
    expect(await v2({ follow_up_for: 'today', follow_up_by: 'me' })).toEqual(['Mine']);
    expect(await v2({ follow_up_for: 'overdue' })).toEqual([]);
    // Several area filters at once: in every set asked for, in none of those refused.
    expect(await v2({ follow_up: '1', pipelines: String(pipelineId) })).toEqual(['Mine']);
    expect(await v2({ follow_up: '1', escalation: '1' })).toEqual([]);
    expect(await v2({ escalation: '0', patientType: 'enrolled' })).toEqual(['Gone', 'Sugar']);
    expect(await v2({ follow_up: '0', escalation: '0' })).toEqual(['Gone', 'Sugar']);
    expect(await v2({ assessment_type: 'overdue' })).toEqual(['Mine']);
    expect(await v2({ assessment_type: 'flagged', assessment_ids: String(surveyId) })).toEqual(['Theirs']);
    expect(await v2({ assessment_completed: '0', assessment_ids: String(surveyId) })).toEqual([
      'Gone',
      'Mine',
      'Pending',
      'Sugar',
    ]);
  });

  it('applies the same filters in enterprise scope, with state', async () => {
    const res = await app.inject({
      method: 'GET',
      url: routeUrl(c.enterpriseList, { enterpriseId }, { state: 'PA' }),
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((p: { last_name: string }) => p.last_name)).toEqual(['Mine']);
  });
});
