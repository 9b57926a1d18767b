import { MED_REC_METHODS, normalisePhone } from '@caredeck/contracts';
import type { Faker } from '@faker-js/faker';
import { sql } from 'drizzle-orm';
import { insertCaregiver } from '../modules/caregivers/caregivers.queries';
import {
  insertCategory,
  insertContent,
  insertTemplate,
  insertFolder as insertTemplateFolder,
} from '../modules/content/content.queries';
import { insertPods, nextPodCodes } from '../modules/medications/medications.queries';
import {
  insertProtocol,
  insertTag,
  insertFolder as insertTagFolder,
  updateProtocol,
} from '../modules/tags/tags.queries';
import type { Queryable } from '../platform/db/client';

const DAY = 86_400_000;

type Ids = {
  monitoringId: number;
  cardiologyId: number;
  adminId: number;
  physicianId: number;
  coordinatorId: number;
  now: number;
};

/**
 * The drugs of the demo regimens (demo-devices.ts names them "<drug> <strength>"), as the physician orders
 * them, with the condition each treats (ICD-10-CM, descriptions as in the code set).
 */
const DRUGS = [
  {
    regimen: 'Metformin 500 mg',
    drug: 'Metformin',
    strength: '500 mg',
    route: 'oral',
    form: 'tablet',
    quantity: 60,
    refills: 5,
    sig: 'Take 1 tablet by mouth twice daily with breakfast and dinner.',
    script: 'Metformin HCl 500 mg tablet',
    frequency: 'twice daily with meals',
    indication: 'Type 2 diabetes',
    condition: { code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' },
    // One in five is not at target yet.
    alternative: { code: 'E11.65', description: 'Type 2 diabetes mellitus with hyperglycemia' },
  },
  {
    regimen: 'Lisinopril 10 mg',
    drug: 'Lisinopril',
    strength: '10 mg',
    route: 'oral',
    form: 'tablet',
    quantity: 30,
    refills: 5,
    sig: 'Take 1 tablet by mouth once daily in the morning.',
    script: 'Lisinopril 10 mg tablet',
    frequency: 'once daily in the morning',
    indication: 'High blood pressure',
    condition: { code: 'I10', description: 'Essential (primary) hypertension' },
    alternative: null,
  },
] as const;
/** The patients of the "Heart failure" cohort (id % 7 = 0) also have it on their blood-pressure regimen. */
const HEART_FAILURE = { code: 'I50.22', description: 'Chronic systolic (congestive) heart failure' };

/**
 * What a program that has run for 90 days has beyond devices and doses (issue: an empty demo): medication
 * orders, scripts and disease states for the demo regimens, pods for a few dispensers, notes with follow-ups
 * (overdue, due today, upcoming, completed), caregivers, reconciled medication lists, tags in folders,
 * protocols, a content library and text-message templates. Every choice is derived from ids or the seeded
 * faker, so each seed makes the same rows. Monitoring gets all of it, Cardiology a part; Harbor nothing.
 */
export async function seedDemoCare(tx: Queryable, faker: Faker, ids: Ids): Promise<void> {
  await seedMedicationPlans(tx, ids);
  await seedPods(tx, ids);
  await seedNotes(tx, ids);
  await seedCaregivers(tx, faker, ids);
  await seedMedRec(tx, ids);
  await seedTags(tx, ids);
  await seedProtocols(tx, ids);
  await seedContent(tx, ids);
}

/** An order per regimen (filled, prescribed by the demo physician), its script and its disease state. */
async function seedMedicationPlans(tx: Queryable, ids: Ids) {
  const drugs = JSON.stringify(DRUGS.map(({ alternative: _a, condition: _c, ...d }) => d));
  // Monitoring: every regimen; Cardiology: the first 15 patients' regimens (prescribed outside the program).
  const regimens = sql`
    SELECT r.id, r.patient_id, r.program_id, r.scheduled_at, d.*
    FROM regimens r JOIN jsonb_to_recordset(${drugs}::jsonb) AS d(regimen text, drug text, strength text, route text,
      form text, quantity int, refills int, sig text, script text) ON d.regimen = r.name
    WHERE r.program_id = ${ids.monitoringId}
       OR r.patient_id IN (SELECT id FROM patients WHERE program_id = ${ids.cardiologyId} ORDER BY id LIMIT 15)`;
  await tx.execute(sql`
    WITH r AS (${regimens}),
    o AS (
      INSERT INTO medication_orders (patient_id, program_id, regimen_id, drug_name, strength, route, form, quantity,
        refills, instructions, prescriber_id, status, created_by, created_at)
      SELECT patient_id, program_id, id, drug, strength, route, form, quantity, refills, sig,
        CASE WHEN program_id = ${ids.monitoringId} THEN ${ids.physicianId}::bigint END, 'filled',
        CASE WHEN program_id = ${ids.monitoringId} THEN ${ids.coordinatorId}::bigint ELSE ${ids.adminId}::bigint END,
        scheduled_at - interval '2 days'
      FROM r ORDER BY id
      RETURNING id, regimen_id)
    UPDATE regimens SET order_id = o.id FROM o WHERE regimens.id = o.regimen_id`);
  await tx.execute(sql`
    WITH r AS (${regimens})
    INSERT INTO scripts (patient_id, program_id, drug_name, sig, quantity, refills, prescriber, written_at, created_at,
      updated_at)
    SELECT patient_id, program_id, script, sig, quantity, refills,
      CASE WHEN program_id = ${ids.monitoringId} THEN 'Priya Raman, MD' ELSE 'Northwind Heart Clinic' END,
      (scheduled_at - interval '3 days')::date, scheduled_at - interval '2 days', scheduled_at - interval '2 days'
    FROM r ORDER BY id`);
  const conditions = JSON.stringify(
    DRUGS.flatMap((d) => [
      { regimen: d.regimen, variant: 0, conditions: [d.condition] },
      { regimen: d.regimen, variant: 1, conditions: [d.alternative ?? d.condition] },
      {
        regimen: d.regimen,
        variant: 2,
        conditions: d.regimen.startsWith('Lisinopril') ? [d.condition, HEART_FAILURE] : [d.condition],
      },
    ]),
  );
  await tx.execute(sql`
    WITH r AS (${regimens})
    INSERT INTO disease_states (patient_id, program_id, conditions, regimen_ids, script_id, started_at, created_by)
    SELECT r.patient_id, r.program_id, c.conditions, ARRAY[r.id]::bigint[],
      (SELECT s.id FROM scripts s WHERE s.patient_id = r.patient_id AND s.drug_name = r.script ORDER BY s.id LIMIT 1),
      r.scheduled_at,
      CASE WHEN r.program_id = ${ids.monitoringId} THEN ${ids.physicianId}::bigint ELSE ${ids.adminId}::bigint END
    FROM r JOIN jsonb_to_recordset(${conditions}::jsonb) AS c(regimen text, variant int, conditions jsonb)
      ON c.regimen = r.regimen
     AND c.variant = CASE WHEN r.patient_id % 7 = 0 THEN 2 WHEN r.patient_id % 5 = 0 THEN 1 ELSE 0 END
    ORDER BY r.id`);
}

/**
 * Pods on a few dispensers' Metformin regimens: the one in use part-empty (never at the low-pods threshold),
 * the spare full. Patients with a wearable are left out: their servings page shows the dispenser doses only.
 */
async function seedPods(tx: Queryable, ids: Ids) {
  const regimens = (
    await tx.execute<{ id: number; patient_id: number; program_id: number }>(sql`
      (SELECT r.id, r.patient_id, r.program_id FROM regimens r
       WHERE r.program_id = ${ids.monitoringId} AND r.name = 'Metformin 500 mg' AND r.patient_id % 4 = 2
         AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.patient_id = r.patient_id AND d.kind = 'wearable')
       ORDER BY r.id LIMIT 12)
      UNION ALL
      (SELECT r.id, r.patient_id, r.program_id FROM regimens r
       WHERE r.program_id = ${ids.cardiologyId} AND r.name = 'Metformin 500 mg' AND r.order_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.patient_id = r.patient_id AND d.kind = 'wearable')
       ORDER BY r.id LIMIT 4)`)
  ).rows;
  for (const r of regimens) {
    const [inUse, spare] = await nextPodCodes(tx, 'MET', 2, true);
    const pod = { regimenId: Number(r.id), patientId: Number(r.patient_id), programId: Number(r.program_id) };
    await insertPods(tx, {
      ...pod,
      prefix: 'MET',
      original: 28,
      remaining: 6 + (Number(r.patient_id) % 19),
      linkedRegimenId: null,
      codes: [inUse!],
    });
    await insertPods(tx, {
      ...pod,
      prefix: 'MET',
      original: 28,
      remaining: 28,
      linkedRegimenId: null,
      codes: [spare!],
    });
  }
}

/** What a care coordinator writes after a call, a reading or a device event; {drug} is the patient's first regimen. */
const NOTE_TEXTS = [
  'Weekly check-in by phone. Taking {drug} as scheduled, no side effects reported. No questions today.',
  'Two missed evening doses this week. Patient says the reminder sounds while they are out walking; agreed to ask Dr. Raman whether the evening dose can move 30 minutes later.',
  'BP cuff readings reviewed: average 138/84 over 14 days, trending down since enrolment. Encouraged continuing the low-salt diet.',
  'Patient called about the dispenser beeping. It was low on battery; walked them through plugging it in. Back online within the hour.',
  'Refill of {drug} due in 10 days. Called the pharmacy, refill requested; pharmacy will deliver on Friday.',
  'Reports mild stomach upset after the morning dose of {drug}. Advised taking it with food; will ask Dr. Raman at the next review if it continues.',
  'Daughter joined the call and will help load the dispenser on Sundays. Added her as a caregiver.',
  'PHQ-9 reviewed with the patient. Score discussed; patient declined a referral for now and will repeat the questionnaire in two weeks.',
  'Dispenser offline for 2 days. Patient had unplugged it while cleaning; reconnected during the call.',
  'Left a voicemail about the missed morning doses. Will try again tomorrow.',
  'Patient asked whether they can take ibuprofen for knee pain while on {drug}. Advised acetaminophen instead and to ask Dr. Raman before any NSAID.',
  'Home BP reading of 162/98 this morning. Repeated after 5 minutes of rest: 148/92. No headache, chest pain or vision changes. Dr. Raman informed.',
  'Medication reconciliation done from the pill bottles over video. List updated; an old prescription was archived.',
  'Travelling to see family next week. Explained how to take the doses from the spare pod while away from the dispenser.',
  'Good month: 96% of doses on time. Patient pleased with the progress and wants to keep the same schedule.',
  'Transportation to the lab appointment arranged through the plan benefit; confirmation number given to the patient.',
] as const;
const ENROLMENT_TEXT =
  'Enrolment call completed. Reviewed how the dispenser works and the dose times; patient repeated the steps back. Will check in after the first week.';
/** What the physician writes after reviewing a patient. */
const PHYSICIAN_TEXTS = [
  'Monthly review: readings and adherence reviewed, regimen unchanged. Next review in 30 days.',
  'Home BP log above target (average 146/90). Continue {drug} for now; reassess after two more weeks of readings.',
  'Reviewed the missed doses with the coordinator: timing issue, not side effects. No change to {drug}.',
] as const;
/** Days from today of the open follow-ups, in turn: two overdue, one today, five upcoming. */
const OPEN_DUE = [-4, -1, 0, 1, 3, 6, 10, 14] as const;

/**
 * Two to four notes per patient since the later of enrolment and 90 days ago (monitoring, not discharged),
 * the first the enrolment call, mostly by the coordinator, some by the physician; a follow-up on a third of
 * them, completed on the day. The newest note of one patient in six has an open follow-up (overdue, due
 * today or upcoming). Each note has its log, as the notes module writes it; no audit rows.
 */
async function seedNotes(tx: Queryable, ids: Ids) {
  const patients = (
    await tx.execute<{ id: number; created_at: Date; drug: string | null }>(sql`
      SELECT p.id, p.created_at, (SELECT r.name FROM regimens r WHERE r.patient_id = p.id ORDER BY r.id LIMIT 1) AS drug
      FROM patients p WHERE p.program_id = ${ids.monitoringId} AND p.status <> 'discharged' ORDER BY p.id`)
  ).rows;
  const today = Math.floor(ids.now / DAY) * DAY;
  const day = (t: number) => new Date(t).toISOString().slice(0, 10);
  const notes: {
    patient_id: number;
    body: string;
    author_id: number;
    internal: boolean;
    pinned: boolean;
    created_at: string;
    due: string | null;
    assignee: number | null;
    completed: boolean;
  }[] = [];
  for (const [i, p] of patients.entries()) {
    const id = Number(p.id);
    const count = 2 + (id % 3);
    const start = Math.max(new Date(p.created_at).getTime(), ids.now - 90 * DAY) + 2 * 3_600_000;
    const open = i % 6 === 0 ? OPEN_DUE[(i / 6) % OPEN_DUE.length]! : null;
    // The newest note 1 to 6 days ago; before its follow-up's day when that is past.
    const lastGap = Math.max(1 + (id % 6), open !== null && open < 0 ? 2 - open : 0) * DAY;
    for (let k = 0; k < count; k++) {
      // That day's office hours (14:00–21:00 UTC, morning to afternoon in the US), never before enrolment.
      const onDay = start + Math.floor(((ids.now - lastGap - start) * k) / (count - 1));
      const at = Math.max(
        start,
        Math.floor(onDay / DAY) * DAY + (14 * 60 + ((id * 7 + k * 13) % 420)) * 60_000,
      );
      const newest = k === count - 1;
      const byPhysician = k > 0 && (id + k) % 5 === 0;
      const text =
        k === 0
          ? ENROLMENT_TEXT
          : byPhysician
            ? PHYSICIAN_TEXTS[(id + k) % PHYSICIAN_TEXTS.length]!
            : NOTE_TEXTS[(id * 3 + k * 5) % NOTE_TEXTS.length]!;
      const closed = Math.floor(at / DAY) * DAY + (3 + (id % 5)) * DAY;
      const due =
        newest && open !== null
          ? today + open * DAY
          : !newest && (id + k) % 3 === 0 && closed < today
            ? closed
            : null;
      notes.push({
        patient_id: id,
        body: text.replace('{drug}', p.drug ?? 'the medication'),
        author_id: byPhysician ? ids.physicianId : ids.coordinatorId,
        internal: (id + k) % 9 === 0,
        pinned: k === 0 && id % 10 === 0,
        created_at: new Date(at).toISOString(),
        due: due === null ? null : day(due),
        assignee: due === null ? null : (id + k) % 4 === 0 ? ids.physicianId : ids.coordinatorId,
        completed: due !== null && !(newest && open !== null),
      });
    }
  }
  await tx.execute(sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(notes.map((n, ord) => ({ ...n, ord })))}::jsonb) AS x(patient_id bigint,
        body text, author_id bigint, internal boolean, pinned boolean, created_at timestamptz, due date, assignee bigint,
        completed boolean, ord bigint)),
    n AS (
      INSERT INTO notes (program_id, patient_id, body, internal, pinned, author_id, created_at, updated_at)
      SELECT ${ids.monitoringId}, patient_id, body, internal, pinned, author_id, created_at, created_at
      FROM input ORDER BY ord
      RETURNING id, patient_id, created_at, author_id, pinned),
    joined AS (
      SELECT n.id AS note_id, i.* FROM n JOIN input i ON i.patient_id = n.patient_id AND i.created_at = n.created_at),
    f AS (
      INSERT INTO follow_ups (note_id, program_id, patient_id, due_date, admin_id, completed_at, completed_by, created_at)
      SELECT note_id, ${ids.monitoringId}, patient_id, due, assignee,
        CASE WHEN completed THEN due + time '16:00' END, CASE WHEN completed THEN assignee END, created_at
      FROM joined WHERE due IS NOT NULL ORDER BY note_id
      RETURNING note_id)
    INSERT INTO note_logs (note_id, action, admin_id, detail, at)
    SELECT note_id, action, admin_id, detail, at FROM (
      SELECT note_id, 1 AS step, 'created' AS action, author_id AS admin_id,
        jsonb_build_object('files', 0, 'kind', 'note') AS detail, created_at AS at FROM joined
      UNION ALL
      SELECT note_id, 2, 'follow_up_set', author_id, jsonb_build_object('date', due, 'admin_id', assignee), created_at
      FROM joined WHERE due IS NOT NULL
      UNION ALL
      SELECT note_id, 3, 'pinned', author_id, '{}'::jsonb, created_at + interval '1 minute' FROM joined WHERE pinned
      UNION ALL
      SELECT note_id, 4, 'follow_up_completed', assignee, jsonb_build_object('date', due), due + time '16:00'
      FROM joined WHERE completed) l
    ORDER BY note_id, step`);
}

/** Real area codes; 555-01XX numbers are reserved for fiction. */
const AREA_CODES = ['215', '312', '617', '404', '713', '602', '503', '206', '305', '720'];

const CAREGIVER_NOTES = [
  'Lives with the patient; helps load the dispenser on Sundays.',
  'Calls the patient every evening; prefers texts during work hours.',
  'Drives the patient to appointments and picks up refills.',
  null,
  'Has a key to the home; contact first if the patient does not answer.',
] as const;

/**
 * Family caregivers for one patient in six (relationship from the patient's age), with the patient's family
 * name, and two home health aides of an agency who help several patients each. Linked more than a week ago.
 */
async function seedCaregivers(tx: Queryable, faker: Faker, ids: Ids) {
  const patients = (
    await tx.execute<{
      id: number;
      program_id: number;
      last_name: string;
      age: number;
      created_at: Date;
    }>(sql`
      SELECT id, program_id, last_name, date_part('year', age(dob))::int AS age, created_at FROM patients
      WHERE status <> 'discharged' AND (
        (program_id = ${ids.monitoringId} AND id % 6 = 1) OR (program_id = ${ids.cardiologyId} AND id % 9 = 1))
      ORDER BY id`)
  ).rows;
  const links: { patient_id: number; caregiver_id: number; at: string }[] = [];
  // Linked more than a week ago: no "caregiver connected" signal on a fresh demo.
  const linkedAt = (p: { id: number; created_at: Date }) =>
    new Date(
      Math.min(
        Math.max(new Date(p.created_at).getTime(), ids.now - 85 * DAY) + (Number(p.id) % 20) * DAY,
        ids.now - 8 * DAY - (Number(p.id) % 7) * 3_600_000,
      ),
    ).toISOString();
  for (const [i, p] of patients.entries()) {
    const id = Number(p.id);
    const relationship =
      p.age >= 75
        ? 'child'
        : p.age < 40
          ? i % 2
            ? 'parent'
            : 'sibling'
          : i % 5 === 0
            ? 'partner'
            : 'spouse';
    const first = faker.person.firstName();
    const last = relationship === 'partner' || i % 7 === 3 ? faker.person.lastName() : p.last_name;
    const caregiver = await insertCaregiver(tx, {
      programId: Number(p.program_id),
      first_name: first,
      last_name: last,
      relationship: i % 7 === 3 ? 'friend' : relationship,
      phone_number: normalisePhone(
        `(${AREA_CODES[id % AREA_CODES.length]}) 555-01${String(id % 100).padStart(2, '0')}`,
      ),
      email: i % 3 === 0 ? `${first}.${last}@example.com`.toLowerCase().replace(/[^a-z0-9.@-]/g, '') : null,
      notes: CAREGIVER_NOTES[i % CAREGIVER_NOTES.length] ?? null,
      createdBy: Number(p.program_id) === ids.monitoringId ? ids.coordinatorId : ids.adminId,
    });
    links.push({ patient_id: id, caregiver_id: Number(caregiver.id), at: linkedAt(p) });
  }
  const aides = (
    await tx.execute<{ id: number; created_at: Date }>(sql`
      SELECT id, created_at FROM patients
      WHERE program_id = ${ids.monitoringId} AND status <> 'discharged' AND id % 6 = 4 ORDER BY id LIMIT 10`)
  ).rows;
  for (const [k, name] of [
    ['Grace', 'Okafor'],
    ['Luis', 'Medina'],
  ].entries()) {
    const aide = await insertCaregiver(tx, {
      programId: ids.monitoringId,
      first_name: name[0]!,
      last_name: name[1]!,
      relationship: 'professional',
      phone_number: normalisePhone(`(312) 555-014${k}`),
      email: `${name[0]}.${name[1]}@brightpath-homecare.example`.toLowerCase(),
      notes: 'Home health aide, BrightPath Home Care. Visits weekdays 9:00–13:00.',
      createdBy: ids.coordinatorId,
    });
    for (const p of aides.filter((_, j) => j % 2 === k))
      links.push({ patient_id: Number(p.id), caregiver_id: Number(aide.id), at: linkedAt(p) });
  }
  await tx.execute(sql`
    INSERT INTO patient_caregivers (patient_id, caregiver_id, created_at)
    SELECT patient_id, caregiver_id, at FROM jsonb_to_recordset(${JSON.stringify(links)}::jsonb)
      AS x(patient_id bigint, caregiver_id bigint, at timestamptz)`);
  await tx.execute(sql`
    UPDATE caregivers c SET created_at = l.at FROM (
      SELECT caregiver_id, min(created_at) AS at FROM patient_caregivers GROUP BY caregiver_id) l
    WHERE c.id = l.caregiver_id`);
}

/** Medicines patients take besides the dispenser's, as a reconciliation finds them. */
const OTHER_MEDS = [
  {
    name: 'Aspirin',
    strength: '81 mg',
    dose: '1 tablet',
    frequency: 'once daily',
    route: 'oral',
    indication: 'Heart attack and stroke prevention',
    prescriber: null,
    source: 'Over the counter',
    notes: null,
  },
  {
    name: 'Atorvastatin',
    strength: '20 mg',
    dose: '1 tablet',
    frequency: 'once daily at bedtime',
    route: 'oral',
    indication: 'High cholesterol',
    prescriber: 'Primary care physician',
    source: 'Pill bottle',
    notes: null,
  },
  {
    name: 'Vitamin D3 (cholecalciferol)',
    strength: '1,000 IU',
    dose: '1 capsule',
    frequency: 'once daily',
    route: 'oral',
    indication: 'Supplement',
    prescriber: null,
    source: 'Patient report',
    notes: null,
  },
  {
    name: 'Omeprazole',
    strength: '20 mg',
    dose: '1 capsule',
    frequency: 'once daily before breakfast',
    route: 'oral',
    indication: 'Acid reflux',
    prescriber: 'Primary care physician',
    source: 'Pharmacy records',
    notes: null,
  },
  {
    name: 'Acetaminophen',
    strength: '500 mg',
    dose: '1–2 tablets',
    frequency: 'every 6 hours as needed, at most 3,000 mg a day',
    route: 'oral',
    indication: 'Knee pain',
    prescriber: null,
    source: 'Over the counter',
    notes: 'Told to avoid ibuprofen while on lisinopril.',
  },
] as const;

/**
 * A reconciled medication list for one patient in four of the monitoring program: the dispenser's
 * medicines, two others from the list above, and for some an archived one (stopped before enrolment),
 * with how and when the list was reconciled.
 */
async function seedMedRec(tx: Queryable, ids: Ids) {
  const patients = (
    await tx.execute<{ id: number; regimens: string[] | null; created_at: Date }>(sql`
      SELECT p.id, p.created_at,
        (SELECT array_agg(r.name ORDER BY r.id) FROM regimens r WHERE r.patient_id = p.id) AS regimens
      FROM patients p WHERE p.program_id = ${ids.monitoringId} AND p.status <> 'discharged' AND p.id % 4 = 3
      ORDER BY p.id`)
  ).rows;
  const items: Record<string, unknown>[] = [];
  const status: Record<string, unknown>[] = [];
  for (const p of patients) {
    const id = Number(p.id);
    const reconciledAt = ids.now - (3 + (id % 40)) * DAY;
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    const started = day(Math.max(new Date(p.created_at).getTime(), ids.now - 90 * DAY));
    for (const name of p.regimens ?? []) {
      const drug = DRUGS.find((d) => d.regimen === name);
      if (!drug) continue;
      items.push({
        patient_id: id,
        name: drug.drug,
        strength: drug.strength,
        dose: '1 tablet',
        frequency: drug.frequency,
        route: drug.route,
        indication: drug.indication,
        prescriber: 'Priya Raman, MD',
        start_date: started,
        last_taken: day(reconciledAt - DAY),
        source: 'Dispenser',
        notes: null,
        archived: false,
      });
    }
    for (const k of [id % OTHER_MEDS.length, (id + 2) % OTHER_MEDS.length]) {
      const med = OTHER_MEDS[k]!;
      items.push({
        patient_id: id,
        ...med,
        start_date: null,
        last_taken: day(reconciledAt - DAY),
        archived: false,
      });
    }
    if (id % 3 === 0)
      items.push({
        patient_id: id,
        name: 'Glipizide',
        strength: '5 mg',
        dose: '1 tablet',
        frequency: 'once daily before breakfast',
        route: 'oral',
        indication: 'Type 2 diabetes',
        prescriber: 'Primary care physician',
        start_date: null,
        last_taken: day(reconciledAt - 120 * DAY),
        source: 'Discharge summary',
        notes: 'Stopped after low blood sugar episodes; replaced by metformin.',
        archived: true,
      });
    status.push({
      patient_id: id,
      method: MED_REC_METHODS[id % MED_REC_METHODS.length],
      at: new Date(reconciledAt).toISOString(),
    });
  }
  await tx.execute(sql`
    INSERT INTO med_rec_items (patient_id, program_id, name, strength, dose, frequency, route, indication, prescriber,
      start_date, last_taken, source, notes, archived, updated_by, created_at, updated_at)
    SELECT patient_id, ${ids.monitoringId}, name, strength, dose, frequency, route, indication, prescriber, start_date,
      last_taken, source, notes, archived, ${ids.coordinatorId}, s.at, s.at
    FROM jsonb_to_recordset(${JSON.stringify(items.map((x, ord) => ({ ...x, ord })))}::jsonb) AS x(patient_id bigint, name text,
      strength text, dose text, frequency text, route text, indication text, prescriber text, start_date date,
      last_taken date, source text, notes text, archived boolean, ord bigint)
    JOIN jsonb_to_recordset(${JSON.stringify(status)}::jsonb) AS s(patient_id bigint, method text, at timestamptz)
      USING (patient_id)
    ORDER BY ord`);
  await tx.execute(sql`
    INSERT INTO med_rec_status (patient_id, method, reconciled_at, reconciled_by)
    SELECT patient_id, method, at, ${ids.coordinatorId}
    FROM jsonb_to_recordset(${JSON.stringify(status)}::jsonb) AS s(patient_id bigint, method text, at timestamptz)`);
}

/** Tag folders and tags a monitoring team uses; each tag on patients chosen by id (1 in 7 to 1 in 21). */
const TAG_FOLDERS = [
  {
    name: 'Clinical risk',
    tags: [
      { name: 'Fall risk', color: '#e03131' },
      { name: 'Recent hospital discharge', color: '#f76707' },
      { name: 'Insulin candidate', color: '#ae3ec9' },
    ],
  },
  {
    name: 'Social needs',
    tags: [
      { name: 'Lives alone', color: '#f59f00' },
      { name: 'Transportation barrier', color: '#1098ad' },
      { name: 'Spanish-speaking', color: '#1c7ed6' },
    ],
  },
  {
    name: 'Engagement',
    tags: [
      { name: 'Needs dispenser training', color: '#0ca678' },
      { name: 'Prefers text messages', color: '#37b24d' },
    ],
  },
];

async function seedTags(tx: Queryable, ids: Ids) {
  const tagIds: number[] = [];
  for (const folder of TAG_FOLDERS) {
    const folderId = await insertTagFolder(tx, ids.monitoringId, folder.name);
    for (const tag of folder.tags)
      tagIds.push(
        await insertTag(tx, { programId: ids.monitoringId, folderId, ...tag, createdBy: ids.coordinatorId }),
      );
  }
  // Cardiology keeps two tags without a folder.
  const cardiologyTags = [
    await insertTag(tx, {
      programId: ids.cardiologyId,
      name: 'Post-MI',
      folderId: null,
      color: '#e03131',
      createdBy: ids.adminId,
    }),
    await insertTag(tx, {
      programId: ids.cardiologyId,
      name: 'Anticoagulated',
      folderId: null,
      color: '#f76707',
      createdBy: ids.adminId,
    }),
  ];
  await tx.execute(sql`
    INSERT INTO patient_tags (patient_id, tag_id, added_by, added_at)
    SELECT p.id, t.id, ${ids.coordinatorId}::bigint, greatest(p.created_at, to_timestamp(${ids.now / 1000}) - interval '80 days')
      + make_interval(days => ((p.id * 7 + t.ord) % 60)::int)
    FROM patients p
    JOIN unnest(${`{${tagIds.join(',')}}`}::bigint[]) WITH ORDINALITY AS t(id, ord) ON (p.id * 7 + t.ord * 13) % (5 + t.ord * 2) = 0
    WHERE p.program_id = ${ids.monitoringId} AND p.status <> 'discharged'
    UNION ALL
    SELECT p.id, t.id, ${ids.adminId}::bigint, greatest(p.created_at, to_timestamp(${ids.now / 1000}) - interval '60 days')
    FROM patients p
    JOIN unnest(${`{${cardiologyTags.join(',')}}`}::bigint[]) WITH ORDINALITY AS t(id, ord) ON (p.id + t.ord) % 6 = 0
    WHERE p.program_id = ${ids.cardiologyId} AND p.status <> 'discharged'`);
}

/** Two care protocols of the monitoring program (documents the team follows; nothing acts on them). */
async function seedProtocols(tx: Queryable, ids: Ids) {
  const steps = (...list: [string, string][]) => list.map(([title, detail]) => ({ title, detail }));
  const bp = await insertProtocol(tx, {
    programId: ids.monitoringId,
    name: 'High blood pressure reading',
    description: 'When a home reading is 160/100 mmHg or higher.',
    steps: steps(
      ['Ask for a repeat reading', 'After 5 minutes of rest, seated, arm supported at heart level.'],
      ['Ask about symptoms', 'Chest pain, shortness of breath, severe headache, vision changes, weakness.'],
      [
        'If any symptom or 180/120 or higher',
        'Tell the patient to call 911. Notify Dr. Raman the same hour.',
      ],
      ['Otherwise', 'Check that today’s doses were taken; message Dr. Raman; follow up within 24 hours.'],
    ),
    active: true,
    adminId: ids.physicianId,
  });
  await updateProtocol(tx, bp, {
    name: 'High blood pressure reading',
    description: 'When a home reading is 160/100 mmHg or higher (threshold lowered from 170/105 in October).',
    steps: steps(
      ['Ask for a repeat reading', 'After 5 minutes of rest, seated, arm supported at heart level.'],
      ['Ask about symptoms', 'Chest pain, shortness of breath, severe headache, vision changes, weakness.'],
      [
        'If any symptom or 180/120 or higher',
        'Tell the patient to call 911. Notify Dr. Raman the same hour.',
      ],
      ['Otherwise', 'Check that today’s doses were taken; message Dr. Raman; follow up within 24 hours.'],
      ['Document', 'Write a note with both readings and set a follow-up.'],
    ),
    active: true,
    adminId: ids.physicianId,
  });
  await insertProtocol(tx, {
    programId: ids.monitoringId,
    name: 'Missed doses outreach',
    description: 'When a patient misses two or more doses in 48 hours.',
    steps: steps(
      ['Check the dispenser', 'Is it online, charged and loaded? A device problem is not a missed dose.'],
      ['Call the patient', 'Ask what got in the way; offer to move dose times within the lockout window.'],
      ['Involve the caregiver', 'With the patient’s consent, ask a linked caregiver to help for a week.'],
      ['Follow up', 'Set a follow-up in 3 days; escalate to the physician after a third missed day.'],
    ),
    active: true,
    adminId: ids.coordinatorId,
  });
}

/** The program's library of patient education, and the coordinator's and physician's texts. */
async function seedContent(tx: Queryable, ids: Ids) {
  const library = [
    {
      name: 'Diabetes',
      items: [
        {
          title: 'Managing type 2 diabetes',
          body: 'Plain-language overview of blood sugar, medicines, food and activity.',
          url: 'https://www.niddk.nih.gov/health-information/diabetes/overview/managing-diabetes',
        },
        {
          title: 'Low blood sugar: signs and what to do',
          body: 'The 15-15 rule: 15 g of fast-acting carbohydrate, check again after 15 minutes.',
          url: 'https://www.cdc.gov/diabetes/about/low-blood-sugar-hypoglycemia.html',
        },
      ],
    },
    {
      name: 'Blood pressure',
      items: [
        {
          title: 'How to measure blood pressure at home',
          body: 'Sit for 5 minutes, feet flat, back supported, cuff on bare arm at heart level; two readings a minute apart.',
          url: 'https://www.heart.org/en/health-topics/high-blood-pressure/understanding-blood-pressure-readings/monitoring-your-blood-pressure-at-home',
        },
        {
          title: 'Cutting down on salt',
          body: 'Aim for less than 2,300 mg of sodium a day; read labels and watch bread, soups and deli meats.',
          url: 'https://www.cdc.gov/salt/about/index.html',
        },
      ],
    },
    {
      name: 'Using your dispenser',
      items: [
        {
          title: 'Loading a new pod',
          body: 'Open the lid when the light is green, take out the empty pod, place the new one with the barcode facing out, close until it clicks.',
          url: null,
        },
        {
          title: 'When the dispenser beeps',
          body: 'A slow beep means a dose is ready; a fast beep means low battery or no connection. Call us if it keeps beeping after you plug it in.',
          url: null,
        },
      ],
    },
  ];
  for (const category of library) {
    const categoryId = await insertCategory(tx, {
      programId: ids.monitoringId,
      name: category.name,
      createdBy: ids.coordinatorId,
    });
    for (const item of category.items)
      await insertContent(tx, { categoryId: Number(categoryId), ...item, createdBy: ids.coordinatorId });
  }
  const heart = await insertCategory(tx, {
    programId: ids.cardiologyId,
    name: 'Heart failure',
    createdBy: ids.adminId,
  });
  await insertContent(tx, {
    categoryId: Number(heart),
    title: 'Daily weights',
    body: 'Weigh every morning after using the bathroom, before breakfast. Call if you gain 2–3 lb in a day or 5 lb in a week.',
    url: 'https://www.heart.org/en/health-topics/heart-failure/warning-signs-of-heart-failure',
    createdBy: ids.adminId,
  });

  const texts = [
    {
      ownerId: ids.coordinatorId,
      folder: 'Reminders',
      templates: [
        {
          name: 'Refill reminder',
          body: 'Hi {first_name}, your refill is due this week. Reply YES if you want us to call the pharmacy.',
          question: true,
        },
        {
          name: 'Dispenser offline',
          body: 'Hi {first_name}, your dispenser has been offline since yesterday. Please check it is plugged in, or call us at the number on the lid.',
          question: false,
        },
        {
          name: 'Missed doses check',
          body: 'Hi {first_name}, we noticed a few missed doses. Is everything OK? Reply 1 if you are fine, 2 if you want a call.',
          question: true,
        },
      ],
    },
    {
      ownerId: ids.coordinatorId,
      folder: 'Appointments',
      templates: [
        {
          name: 'Lab work reminder',
          body: 'Hi {first_name}, a reminder of your lab appointment this week. Please bring your medication list.',
          question: false,
        },
        {
          name: 'Monthly review call',
          body: '{program}: Dr. Raman would like to review your readings with you. Which day suits you for a short call?',
          question: true,
        },
      ],
    },
    {
      ownerId: ids.physicianId,
      folder: 'Results',
      templates: [
        {
          name: 'Readings on target',
          body: 'Hi {first_name}, your blood pressure readings this month are on target. Keep going!',
          question: false,
        },
      ],
    },
  ];
  for (const f of texts) {
    const folderId = await insertTemplateFolder(tx, {
      programId: ids.monitoringId,
      ownerId: f.ownerId,
      name: f.folder,
    });
    for (const t of f.templates) await insertTemplate(tx, Number(folderId), t);
  }
}
