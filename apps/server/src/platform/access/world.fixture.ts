import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { given } from '../../seed/given';
import type { Database } from '../db/client';
import type { FileStorage } from '../files/storage';
import type { AccessTableEntry } from './access.plugin';

// One program's world for the walks over every route (access-matrix.test.ts: every role × tenant;
// http/fuzz.test.ts: hostile bodies and queries): one object of every kind a route's path can name, and the
// route's URL with each path parameter filled by the object it names.

/** A program, its enterprise and its objects by kind. */
export type Fixture = { program: number; enterprise: number; objects: Record<string, number> };

/** Objects of one program, one per object kind the rules name (and the path sub-objects of program routes). */
export async function objectsOf(
  db: Database,
  storage: FileStorage,
  programId: number,
  adminId: number,
): Promise<Record<string, number>> {
  const g = given(db);
  const one = async (query: ReturnType<typeof sql>) =>
    Number((await db.execute<{ id: number }>(query)).rows[0]!.id);
  const patient = (await g.patient({ programId })).id;
  const group = (await g.group({ programId, patientIds: [patient] })).id;
  const regimen = (await g.regimen({ patientId: patient, programId })).id;
  const device = (await g.device({ programId, patientId: patient, kind: 'dispenser' })).id;
  const pipeline = await one(
    sql`INSERT INTO pipelines (program_id, name) VALUES (${programId}, 'Matrix') RETURNING id`,
  );
  const stage = await one(
    sql`INSERT INTO pipeline_stages (pipeline_id, name, position) VALUES (${pipeline}, 'First', 0) RETURNING id`,
  );
  await db.execute(sql`INSERT INTO pipeline_patients (pipeline_id, patient_id, stage_id)
    VALUES (${pipeline}, ${patient}, ${stage})`);
  const note = await one(
    sql`INSERT INTO notes (program_id, patient_id, body) VALUES (${programId}, ${patient}, 'Matrix') RETURNING id`,
  );
  const followUp = await one(sql`INSERT INTO follow_ups (note_id, program_id, patient_id, due_date)
    VALUES (${note}, ${programId}, ${patient}, '2026-12-01') RETURNING id`);
  const category = await one(
    sql`INSERT INTO content_categories (program_id, name) VALUES (${programId}, 'Matrix') RETURNING id`,
  );
  const folder = await one(sql`INSERT INTO content_folders (program_id, owner_id, name)
    VALUES (${programId}, ${adminId}, 'Matrix') RETURNING id`);
  const template = await one(sql`INSERT INTO text_message_templates (folder_id, name, body)
    VALUES (${folder}, 'Matrix', 'Hello') RETURNING id`);
  const timeEntry = await one(sql`INSERT INTO billing_time_entries
      (program_id, patient_id, admin_id, type, activity, started_at, ended_at, seconds)
    VALUES (${programId}, ${patient}, ${adminId}, 'rpm', 'Data review', now() - interval '10 minutes', now(), 600)
    RETURNING id`);
  const externalPatient = await one(sql`INSERT INTO external_patients
      (program_id, pharmacy_patient_id, first_name, last_name, dob)
    VALUES (${programId}, ${`M${programId}`}, 'Matrix', 'Patient', '1950-01-01') RETURNING id`);
  const externalOrder = await one(sql`INSERT INTO external_orders
      (program_id, external_patient_id, order_number, status, drug_name, quantity, days_supply, sig, times_per_day,
       per_dose, times, need_by_date)
    VALUES (${programId}, ${externalPatient}, ${`O${programId}`}, 'received', 'Drug', 30, 30, 'Once daily', 1, 1,
            '{08:00}', '2026-12-01') RETURNING id`);
  const survey = await one(
    sql`INSERT INTO surveys (program_id, name) VALUES (${programId}, 'Matrix') RETURNING id`,
  );
  const surveyFolder = await one(
    sql`INSERT INTO survey_folders (program_id, name) VALUES (${programId}, 'Matrix') RETURNING id`,
  );
  const alert =
    await one(sql`INSERT INTO alerts (program_id, patient_id, type, first_at, last_at, summary, reason)
    VALUES (${programId}, ${patient}, 'missed_doses', now(), now(), 'Matrix', '{}') RETURNING id`);
  const rule = await one(sql`INSERT INTO rules (program_id, name, observable, criterion, outcome)
    VALUES (${programId}, 'Matrix', 'bp', '{}', '{}') RETURNING id`);
  const conversation = await one(
    sql`INSERT INTO conversations (program_id, name) VALUES (${programId}, 'Matrix') RETURNING id`,
  );
  const tag = await one(
    sql`INSERT INTO tags (program_id, name) VALUES (${programId}, 'Matrix') RETURNING id`,
  );
  const tagFolder = await one(
    sql`INSERT INTO tag_folders (program_id, name) VALUES (${programId}, 'Matrix') RETURNING id`,
  );
  const protocol = await one(
    sql`INSERT INTO protocols (program_id, name) VALUES (${programId}, 'Matrix') RETURNING id`,
  );
  const report =
    await one(sql`INSERT INTO reports (program_id, name, type, audience, format, period, created_by)
    VALUES (${programId}, 'Matrix', 'adherence', 'care', 'csv', 'month', ${adminId}) RETURNING id`);
  const order = await one(sql`INSERT INTO medication_orders (patient_id, program_id, drug_name)
    VALUES (${patient}, ${programId}, 'Drug') RETURNING id`);
  // The path's sub-objects: a message, a note's file, report runs, an order form, a pod and its barcode, an
  // assigned survey (their routes answer 404 for another tenant's, like every object).
  const message =
    await one(sql`INSERT INTO messenger_messages (conversation_id, sender_admin_id, sender_name, body)
    VALUES (${conversation}, ${adminId}, 'Matrix', 'Hello') RETURNING id`);
  // Files are stored for real, so an allowed role's answer is the file (200), not a missing object (404).
  const stored = async (name: string) => {
    const key = `matrix/${programId}/${name}`;
    await storage.put(key, Readable.from([Buffer.from('%PDF-1.4 matrix')]));
    return key;
  };
  const noteFile = await one(sql`INSERT INTO note_files (note_id, storage_key, file_name, content_type, size)
    VALUES (${note}, ${await stored('note')}, 'scan.pdf', 'application/pdf', 15) RETURNING id`);
  const attachment = await one(sql`INSERT INTO messenger_attachments
      (message_id, conversation_id, storage_key, file_name, content_type, size)
    VALUES (${message}, ${conversation}, ${await stored('attachment')}, 'scan.pdf', 'application/pdf', 15)
    RETURNING id`);
  const reportRun = await one(sql`INSERT INTO report_runs
      (report_id, program_id, requested_by, period_start, period_end, status, file_key, file_name, bytes, finished_at)
    VALUES (${report}, ${programId}, ${adminId}, '2026-01-01', '2026-01-31', 'done', ${await stored('run')},
            'report.csv', 15, now()) RETURNING id`);
  const patientsFile = await one(sql`INSERT INTO report_runs
      (program_id, kind, patient_id, requested_by, period_start, period_end, status, file_key, file_name, bytes,
       finished_at)
    VALUES (${programId}, 'patient_pdf', ${patient}, ${adminId}, '2026-01-01', '2026-01-31', 'done',
            ${await stored('patient')}, 'patient.pdf', 15, now()) RETURNING id`);
  const orderForm = await one(sql`INSERT INTO order_forms
      (program_id, patient_id, template_id, template_name, recipient_kind, fields, created_by)
    SELECT ${programId}, ${patient}, t.id, t.name, t.recipient_kind, '{}', ${adminId}
    FROM order_form_templates t ORDER BY t.id LIMIT 1 RETURNING id`);
  const barcode = 90_000_000 + programId;
  const pod = await one(sql`INSERT INTO pods
      (regimen_id, patient_id, program_id, barcode, prefix, num, original_servings, servings_remaining)
    VALUES (${regimen}, ${patient}, ${programId}, ${String(barcode)}, 'MX', 1, 30, 30) RETURNING id`);
  const assignment = await one(sql`INSERT INTO survey_assignments (program_id, survey_id, patient_id)
    VALUES (${programId}, ${survey}, ${patient}) RETURNING id`);
  const fhirClient = await one(sql`INSERT INTO fhir_clients (program_id, client_id, name, jwks, scopes)
    VALUES (${programId}, ${`matrix-${programId}`}, 'Matrix EHR', '{"keys": []}', '{system/*.rs}') RETURNING id`);
  // Children of the patient and of the conversation that routes name by their own id.
  const caregiver =
    await one(sql`INSERT INTO caregivers (program_id, first_name, last_name, relationship, phone_number)
    VALUES (${programId}, 'Matrix', 'Carer', 'spouse', '+15555550101') RETURNING id`);
  await db.execute(
    sql`INSERT INTO patient_caregivers (patient_id, caregiver_id) VALUES (${patient}, ${caregiver})`,
  );
  const usage = await one(sql`INSERT INTO medication_usages (patient_id, regimen_id, taken_at)
    VALUES (${patient}, ${regimen}, now() - interval '1 hour') RETURNING id`);
  const medRecItem = await one(sql`INSERT INTO med_rec_items (patient_id, program_id, name)
    VALUES (${patient}, ${programId}, 'Matrix drug') RETURNING id`);
  const guestInvite = await one(sql`INSERT INTO guest_invites
      (conversation_id, patient_id, guest_name, channel, sent_to, invited_by, expires_at)
    VALUES (${conversation}, ${patient}, 'Matrix Guest', 'sms', '+15555550100', ${adminId}, now() + interval '1 day')
    RETURNING id`);
  const schedule = await one(sql`INSERT INTO notification_schedules
      (program_id, patient_id, type, title, body, at_time, days, start_date, created_by)
    VALUES (${programId}, ${patient}, 'sms', 'Matrix', 'Hello', '08:00', '{1,2,3,4,5,6,7}', current_date, ${adminId})
    RETURNING id`);
  return {
    patient,
    group,
    regimen,
    device,
    dispenser: device,
    pipeline,
    'pipeline stage': stage,
    note,
    'follow-up': followUp,
    'content category': category,
    'content folder': folder,
    'text message': template,
    'billing time entry': timeEntry,
    external_patient: externalPatient,
    external_order: externalOrder,
    survey,
    'survey folder': surveyFolder,
    alert,
    rule,
    conversation,
    tag,
    'tag folder': tagFolder,
    protocol,
    report,
    'medication order': order,
    'messenger message': message,
    'note file': noteFile,
    'messenger attachment': attachment,
    'report run': reportRun,
    'patients-report file': patientsFile,
    'order form': orderForm,
    pod,
    'pod barcode': barcode,
    'survey assignment': assignment,
    'fhir client': fhirClient,
    caregiver,
    'medication usage': usage,
    'med-rec item': medRecItem,
    'guest invite': guestInvite,
    'notification schedule': schedule,
  };
}

/** Path parameters by name: objects of the tenant, or plain values. Unknown names stay unfilled. */
const PARAM_OBJECTS: Record<string, string> = {
  id: 'patient',
  userId: 'patient',
  patientId: 'patient',
  patient_id: 'patient',
  receiverId: 'patient',
  pipeline_id: 'pipeline',
  stage_id: 'pipeline stage',
  stage: 'pipeline stage',
  s: 'survey',
  surveyId: 'survey',
  regimenId: 'regimen',
  groupId: 'group',
  reportId: 'report',
  orderId: 'medication order',
  conversationId: 'conversation',
  entryId: 'billing time entry',
  messageId: 'messenger message',
  runId: 'report run',
  podId: 'pod',
  clientId: 'fhir client',
  caregiver_id: 'caregiver',
  usageId: 'medication usage',
  medicationId: 'med-rec item',
  inviteId: 'guest invite',
  scheduleId: 'notification schedule',
  barcode: 'pod barcode',
};
/** A `fileId` is named by the object two segments before it. */
const FILE_OBJECTS: Record<string, string> = { notes: 'note file', conversations: 'messenger attachment' };
/** Parameters whose name says more than the segment before them (`surveys/:su` is an assignment). */
const NAMED_OBJECTS: Record<string, string> = { su: 'survey assignment' };
/** Path objects named by the segment before them (`…/groups/:id`). */
const SEGMENT_OBJECTS: Record<string, string> = {
  users: 'patient',
  groups: 'group',
  regimens: 'regimen',
  orders: 'medication order',
  surveys: 'survey',
  pipelines: 'pipeline',
  report: 'report',
  'patients-report': 'patient',
  generate: 'patient',
  'order-form': 'order form',
  files: 'patients-report file',
};
const PARAM_VALUES: Record<string, string> = {
  start: '2026-01-01',
  startDate: '2026-01-01',
  end: '2026-01-31',
  endDate: '2026-01-31',
  needByDate: '2026-12-01',
  q: 'amlodipine',
  vendor: 'medesto',
  type: 'pulse',
};

/** What names the object of one path parameter (`segments[i]`), by its name or the segments around it. */
function objectKindAt(segments: string[], i: number): string | undefined {
  const name = segments[i]!.slice(1);
  // A file of a note or of a conversation (`notes/:id/files/:fileId`, `conversations/:id/files/:fileId`).
  const fileOf = name === 'fileId' ? FILE_OBJECTS[segments[i - 3]!] : undefined;
  return fileOf ?? NAMED_OBJECTS[name] ?? SEGMENT_OBJECTS[segments[i - 1]!] ?? PARAM_OBJECTS[name];
}

/** The real value of one path parameter (`segments[i]`) for a tenant, or undefined when none is known. */
function paramValue(route: AccessTableEntry, tenant: Fixture, self: number, segments: string[], i: number) {
  const name = segments[i]!.slice(1);
  if (name === 'programId') return String(tenant.program);
  if (name === 'enterpriseId') return String(tenant.enterprise);
  if (route.access.kind === 'object' && name === route.access.param)
    return String(tenant.objects[route.access.object.name]);
  if (name in PARAM_VALUES) return PARAM_VALUES[name]!;
  // A staff member in the path (`admins/:adminId`, `adminlogs/:id`): the caller, whose own logs anyone reads.
  if (name === 'adminId' || segments[i - 1] === 'adminlogs') return String(self);
  // A conversation's member (`conversations/:id/users/:userId`): the caller, a member of the fixture's.
  if (segments[i - 3] === 'conversations' && segments[i - 1] === 'users') return String(self);
  const kind = objectKindAt(segments, i);
  const id = kind ? tenant.objects[kind] : undefined;
  return id === undefined ? undefined : String(id);
}

/** The route's URL for a tenant, and whether every path parameter could be filled with a real value. */
export function urlFor(
  route: AccessTableEntry,
  tenant: Fixture,
  self: number,
): { url: string; filled: boolean } {
  let filled = true;
  const segments = route.url.split('/');
  const url = segments
    .map((segment, i) => {
      if (!segment.startsWith(':')) return segment;
      const value = paramValue(route, tenant, self, segments, i);
      if (value === undefined) filled = false;
      return value ?? '1';
    })
    .join('/');
  return { url, filled };
}
