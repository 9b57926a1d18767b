import { SURVEY_MESSAGES } from '@caredeck/contracts';
import { firedTriggers, maxScore, type ScoredQuestion, scoreAnswers } from '@caredeck/domain';
import { sql } from 'drizzle-orm';
import {
  insertSurvey,
  questionsOfSurveys,
  replaceQuestions,
  triggersOfSurvey,
} from '../modules/surveys/surveys.queries';
import type { Queryable } from '../platform/db/client';

const DAY = 86_400_000;
const FREQUENCY = [
  { value: '0', label: 'Not at all', score: 0 },
  { value: '1', label: 'Several days', score: 1 },
  { value: '2', label: 'More than half the days', score: 2 },
  { value: '3', label: 'Nearly every day', score: 3 },
];
const item = (text: string) => ({
  text,
  kind: 'single' as const,
  options: FREQUENCY,
  min: null,
  max: null,
  required: true,
});

/** The two screening questionnaires every monitoring program uses, worded as in their public versions. */
const SURVEYS = [
  {
    name: 'PHQ-9 depression screening',
    description: 'Over the last 2 weeks, how often have you been bothered by any of the following problems?',
    scoreTrigger: 10,
    lastItemTrigger: 1,
    items: [
      'Little interest or pleasure in doing things',
      'Feeling down, depressed, or hopeless',
      'Trouble falling or staying asleep, or sleeping too much',
      'Feeling tired or having little energy',
      'Poor appetite or overeating',
      'Feeling bad about yourself, or that you are a failure or have let yourself or your family down',
      'Trouble concentrating on things, such as reading the newspaper or watching television',
      'Moving or speaking so slowly that other people could have noticed, or being so fidgety or restless that you have been moving around a lot more than usual',
      'Thoughts that you would be better off dead, or of hurting yourself',
    ],
  },
  {
    name: 'GAD-7 anxiety screening',
    description: 'Over the last 2 weeks, how often have you been bothered by the following problems?',
    scoreTrigger: 10,
    lastItemTrigger: null,
    items: [
      'Feeling nervous, anxious, or on edge',
      'Not being able to stop or control worrying',
      'Worrying too much about different things',
      'Trouble relaxing',
      'Being so restless that it is hard to sit still',
      'Becoming easily annoyed or irritable',
      'Feeling afraid, as if something awful might happen',
    ],
  },
];

/**
 * Demo surveys of the monitoring program: PHQ-9 and GAD-7 with their usual score triggers (10) and the
 * PHQ-9 self-harm item as a question trigger; PHQ-9 assigned to 30 patients (completed, open, overdue,
 * scheduled), answers derived from the patient id (no random draws), so the worklist, cards and survey
 * alerts show real figures.
 */
export async function seedDemoSurveys(
  tx: Queryable,
  ids: { programId: number; adminId: number; coordinatorId: number; now: number },
) {
  const folder = await tx.execute<{ id: number }>(sql`
    INSERT INTO survey_folders (program_id, name, created_by) VALUES (${ids.programId}, 'Screening', ${ids.adminId})
    RETURNING id`);
  const surveyIds: number[] = [];
  for (const s of SURVEYS) {
    const id = await insertSurvey(tx, {
      programId: ids.programId,
      name: s.name,
      description: s.description,
      folderId: Number(folder.rows[0]!.id),
      url: null,
      analyseUrl: null,
      createdBy: ids.adminId,
    });
    await replaceQuestions(tx, id, s.items.map(item), ids.adminId, false);
    await tx.execute(sql`
      UPDATE survey_triggers SET value = ${s.scoreTrigger}, is_active = true WHERE survey_id = ${id} AND kind = 'score'`);
    if (s.lastItemTrigger !== null)
      await tx.execute(sql`
        UPDATE survey_triggers SET value = ${s.lastItemTrigger}, is_active = true
        WHERE question_id = (SELECT id FROM survey_questions WHERE survey_id = ${id} ORDER BY position DESC LIMIT 1)`);
    surveyIds.push(id);
  }

  const phq = surveyIds[0]!;
  const questions: ScoredQuestion[] = await questionsOfSurveys(tx, [phq]);
  const triggers = await triggersOfSurvey(tx, phq);
  const patients = await tx.execute<{ id: number }>(
    sql`SELECT id FROM patients WHERE program_id = ${ids.programId} ORDER BY id LIMIT 30`,
  );
  for (const [i, { id: raw }] of patients.rows.entries()) {
    const patientId = Number(raw);
    // 0–17 completed, 18–21 open, 22–25 overdue, 26–29 scheduled.
    const state = i < 18 ? 'completed' : i < 22 ? 'open' : i < 26 ? 'overdue' : 'scheduled';
    const scheduled =
      state === 'scheduled'
        ? ids.now + (i - 24) * DAY
        : state === 'overdue'
          ? ids.now - (5 + i - 22) * DAY
          : state === 'open'
            ? ids.now - ((i - 18) * DAY) / 2
            : ids.now - (2 + i) * DAY;
    const assignment = await tx.execute<{ id: number }>(sql`
      INSERT INTO survey_assignments (program_id, survey_id, patient_id, status, scheduled_at, admin_assign,
        reassign_after_days, assigned_by, assigned_at, completed_at)
      VALUES (${ids.programId}, ${phq}, ${patientId}, ${state === 'completed' ? 'completed' : 'pending'},
        ${new Date(scheduled).toISOString()}, true, NULL, ${ids.coordinatorId}, ${new Date(scheduled).toISOString()},
        ${state === 'completed' ? new Date(scheduled + DAY).toISOString() : null})
      RETURNING id`);
    const assignmentId = Number(assignment.rows[0]!.id);
    await tx.execute(sql`
      INSERT INTO survey_events (assignment_id, kind, admin_id, at)
      VALUES (${assignmentId}, 'assigned', ${ids.coordinatorId}, ${new Date(scheduled).toISOString()})`);
    if (state !== 'completed') continue;
    // Answers from the patient id: most low, a few high, one in six marking the self-harm item.
    const answers = questions.map((q, k) => ({
      question_id: q.id,
      value: String(
        k === 8 ? (patientId % 6 === 0 ? 1 : 0) : (patientId * (k + 3) + i) % (i % 4 === 0 ? 4 : 2),
      ),
    }));
    const scored = scoreAnswers(questions, answers, true, SURVEY_MESSAGES);
    const fired = firedTriggers(triggers, questions, scored.answers, scored.score);
    const completedAt = new Date(scheduled + DAY).toISOString();
    await tx.execute(sql`
      INSERT INTO survey_responses (assignment_id, survey_id, patient_id, program_id, version, status, answers, score,
        max_score, triggers, recorded_by, started_at, completed_at)
      VALUES (${assignmentId}, ${phq}, ${patientId}, ${ids.programId}, 1, 'completed',
        ${JSON.stringify(scored.answers)}::jsonb, ${scored.score}, ${maxScore(questions)},
        ${JSON.stringify(fired)}::jsonb, ${ids.coordinatorId}, ${completedAt}, ${completedAt})`);
    await tx.execute(sql`
      INSERT INTO survey_events (assignment_id, kind, admin_id, at, detail)
      VALUES (${assignmentId}, 'completed', ${ids.coordinatorId}, ${completedAt},
        ${JSON.stringify({ score: scored.score, triggers: fired.length })}::jsonb)`);
  }
}
