import type {
  OrderForm,
  OrderFormField,
  OrderFormTemplate,
  PatientFact,
  RecipientKind,
} from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';
import { ORDER_FORM_CATALOGUE } from './order-forms.catalogue';

/** Loads the shipped catalogue (module `prepare`): new templates appear, changed ones are updated in place. */
export async function loadOrderFormTemplates(db: Queryable): Promise<void> {
  const rows = ORDER_FORM_CATALOGUE.map((t, position) => ({ ...t, position }));
  await db.execute(sql`
    INSERT INTO order_form_templates (id, code, name, description, recipient_kind, program_types, fields, position)
    SELECT (t->>'id')::bigint, t->>'code', t->>'name', t->>'description', t->>'recipient_kind',
      ARRAY(SELECT jsonb_array_elements_text(t->'program_types')), t->'fields', (t->>'position')::int
    FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) AS t
    ON CONFLICT (id) DO UPDATE SET code = excluded.code, name = excluded.name, description = excluded.description,
      recipient_kind = excluded.recipient_kind, program_types = excluded.program_types, fields = excluded.fields,
      position = excluded.position`);
}

type TemplateRow = Omit<OrderFormTemplate, 'id'> & { id: number | string };
const toTemplate = (r: TemplateRow): OrderFormTemplate => ({ ...r, id: Number(r.id) });

/** The templates a program offers: those of its program type, in catalogue order. */
export async function templatesOfProgram(db: Queryable, programId: number): Promise<OrderFormTemplate[]> {
  const res = await db.execute<TemplateRow>(sql`
    SELECT t.id, t.code, t.name, t.description, t.recipient_kind, t.fields
    FROM order_form_templates t JOIN programs p ON p.id = ${programId}
    WHERE p.type = ANY(t.program_types)
    ORDER BY t.position, t.id`);
  return res.rows.map(toTemplate);
}

export async function templateOfProgram(
  db: Queryable,
  programId: number,
  templateId: number,
): Promise<OrderFormTemplate | null> {
  const res = await db.execute<TemplateRow>(sql`
    SELECT t.id, t.code, t.name, t.description, t.recipient_kind, t.fields
    FROM order_form_templates t JOIN programs p ON p.id = ${programId}
    WHERE t.id = ${templateId} AND p.type = ANY(t.program_types)`);
  return res.rows[0] ? toTemplate(res.rows[0]) : null;
}

export type PatientFacts = Record<PatientFact, string | null>;

const DEVICE_NAMES = sql`CASE d.kind
  WHEN 'dispenser' THEN 'Medication dispenser' WHEN 'inhaler' THEN 'Smart inhaler'
  WHEN 'bp_cuff' THEN 'Blood pressure cuff' WHEN 'pulse_oximeter' THEN 'Pulse oximeter'
  WHEN 'scale' THEN 'Weight scale' WHEN 'glucometer' THEN 'Glucometer' WHEN 'wearable' THEN 'Wearable'
  ELSE 'NFC reader' END`;

/**
 * What the record knows for a form, in one statement: demographics, the physician, the active regimens and
 * open orders of the medications module (one a line), and the devices assigned to the patient. Null when the
 * patient is not of the program.
 */
export async function patientFacts(
  db: Queryable,
  programId: number,
  patientId: number,
): Promise<PatientFacts | null> {
  const res = await db.execute<PatientFacts>(sql`
    SELECT
      concat_ws(' ', p.first_name, p.middle_name, p.last_name) AS patient_name,
      p.dob::text AS date_of_birth,
      CASE WHEN p.sex = 'unknown' THEN NULL ELSE initcap(p.sex) END AS sex,
      NULLIF(concat_ws(E'\n', NULLIF(p.address_line1, ''), NULLIF(p.address_line2, ''),
        NULLIF(concat_ws(' ', NULLIF(p.city, '') || ',', NULLIF(p.state, ''), NULLIF(p.zip, '')), '')), '') AS address,
      NULLIF(p.phone_number, '') AS phone,
      NULLIF(p.mrn, '') AS mrn,
      (SELECT concat_ws(', ', a.given_name || ' ' || a.family_name, NULLIF(a.title, ''))
         FROM admins a WHERE a.id = p.physician_id) AS physician,
      (SELECT string_agg(m.line, E'\n' ORDER BY m.ord, m.id) FROM (
         SELECT 0 AS ord, r.id, r.name || CASE WHEN cardinality(r.times) > 0
           THEN ' (' || r.repeat || ' at ' || array_to_string(r.times, ', ') || ')' ELSE ' (' || r.repeat || ')' END AS line
         FROM regimens r WHERE r.patient_id = p.id AND r.status = 'active' AND r.type <> 'medesto-device'
         UNION ALL
         SELECT 1, o.id, concat_ws(' ', o.drug_name, o.strength, o.form) || COALESCE(' · ' || NULLIF(o.instructions, ''), '')
         FROM medication_orders o WHERE o.patient_id = p.id AND o.status <> 'cancelled'
           AND NOT EXISTS (SELECT 1 FROM regimens r2 WHERE r2.order_id = o.id AND r2.status = 'active')
       ) m) AS medications,
      (SELECT string_agg(${DEVICE_NAMES} || ' (serial ' || d.serial || ')', E'\n' ORDER BY d.kind, d.id)
         FROM devices d WHERE d.patient_id = p.id) AS devices
    FROM patients p WHERE p.id = ${patientId} AND p.program_id = ${programId}`);
  return res.rows[0] ?? null;
}

export type SnapshotField = {
  key: string;
  label: string;
  source: OrderFormField['source'];
  value: string | null;
};

export async function insertOrderForm(
  tx: Queryable,
  f: {
    programId: number;
    patientId: number;
    template: OrderFormTemplate;
    fields: SnapshotField[];
    createdBy: number;
  },
): Promise<number> {
  const res = await tx.execute<{ id: number }>(sql`
    INSERT INTO order_forms (program_id, patient_id, template_id, template_name, recipient_kind, fields, created_by)
    VALUES (${f.programId}, ${f.patientId}, ${f.template.id}, ${f.template.name}, ${f.template.recipient_kind},
      ${JSON.stringify(f.fields)}::jsonb, ${f.createdBy})
    RETURNING id`);
  return Number(res.rows[0]!.id);
}

export async function setOrderFormPdf(tx: Queryable, id: number, key: string, size: number): Promise<void> {
  await tx.execute(sql`
    UPDATE order_forms SET pdf_key = ${key}, pdf_size = ${size}, pdf_generated_at = now() WHERE id = ${id}`);
}

/** What rendering and sending need, the row locked for the use case (another send waits). */
export type FormCore = {
  id: number;
  program_id: number;
  patient_id: number;
  template_name: string;
  recipient_kind: RecipientKind;
  state: 'created' | 'sent' | 'resent';
  fields: SnapshotField[];
  pdf_key: string | null;
  pdf_size: number | null;
  created_at: string;
  created_by_name: string;
  program_name: string;
  last_to: string | null;
  last_recipient_name: string | null;
};

export async function orderFormCore(
  db: Queryable,
  patientId: number,
  formId: number,
  opts: { lock?: boolean } = {},
): Promise<FormCore | null> {
  const res = await db.execute<FormCore>(sql`
    SELECT f.id, f.program_id, f.patient_id, f.template_name, f.recipient_kind, f.state, f.fields, f.pdf_key,
      f.pdf_size, f.created_at, a.given_name || ' ' || a.family_name AS created_by_name, pr.name AS program_name,
      s.to_address AS last_to, s.recipient_name AS last_recipient_name
    FROM order_forms f
    JOIN admins a ON a.id = f.created_by
    JOIN programs pr ON pr.id = f.program_id
    LEFT JOIN LATERAL (SELECT to_address, recipient_name FROM order_form_sends
      WHERE order_form_id = f.id ORDER BY id DESC LIMIT 1) s ON true
    WHERE f.id = ${formId} AND f.patient_id = ${patientId}
    ${opts.lock ? sql`FOR UPDATE OF f` : sql``}`);
  const row = res.rows[0];
  return row
    ? {
        ...row,
        id: Number(row.id),
        program_id: Number(row.program_id),
        created_at: new Date(row.created_at).toISOString(),
      }
    : null;
}

type FormRow = Omit<OrderForm, 'created_at' | 'last_sent_at' | 'pdf_generated_at' | 'sends'> & {
  created_at: string | Date;
  last_sent_at: string | Date | null;
  pdf_generated_at: string | Date | null;
  sends: (Omit<OrderForm['sends'][number], 'sent_at' | 'link_expires_at' | 'last_downloaded_at'> & {
    sent_at: string;
    link_expires_at: string;
    last_downloaded_at: string | null;
  })[];
};

const FORM_SELECT = sql`
  SELECT f.id, f.patient_id,
    json_build_object('id', f.template_id, 'name', f.template_name, 'recipient_kind', f.recipient_kind) AS template,
    f.state,
    (SELECT COALESCE(json_agg(json_build_object('key', e->>'key', 'label', e->>'label', 'value', e->'value')
       ORDER BY n), '[]'::json) FROM jsonb_array_elements(f.fields) WITH ORDINALITY AS x(e, n)) AS fields,
    f.pdf_key IS NOT NULL AS has_pdf, f.pdf_generated_at,
    json_build_object('id', f.created_by, 'name', ca.given_name || ' ' || ca.family_name) AS created_by,
    f.created_at, f.last_sent_at,
    (SELECT json_build_object('to', s.to_address, 'name', s.recipient_name) FROM order_form_sends s
       WHERE s.order_form_id = f.id ORDER BY s.id DESC LIMIT 1) AS recipient,
    (SELECT COALESCE(json_agg(json_build_object(
        'id', s.id, 'kind', s.kind, 'channel', s.channel, 'to', s.to_address, 'recipient_name', s.recipient_name,
        'sent_by', json_build_object('id', s.sent_by, 'name', sa.given_name || ' ' || sa.family_name),
        'sent_at', s.sent_at, 'delivery', COALESCE(o.status, 'sent'), 'link_expires_at', s.link_expires_at,
        'downloads', s.downloads, 'last_downloaded_at', s.last_downloaded_at) ORDER BY s.id DESC), '[]'::json)
     FROM order_form_sends s JOIN admins sa ON sa.id = s.sent_by
     LEFT JOIN email_outbox o ON o.id = s.email_outbox_id
     WHERE s.order_form_id = f.id) AS sends
  FROM order_forms f JOIN admins ca ON ca.id = f.created_by`;

/** pg gives timestamps as Date or (inside JSON) as text: the API writes them ISO 8601 in UTC. */
const isoUtc = (v: string | Date) => new Date(v).toISOString();
const iso = (v: string | Date | null) => (v === null ? null : isoUtc(v));

function toForm(r: FormRow): OrderForm {
  return {
    ...r,
    id: Number(r.id),
    patient_id: Number(r.patient_id),
    created_at: isoUtc(r.created_at),
    last_sent_at: iso(r.last_sent_at),
    pdf_generated_at: iso(r.pdf_generated_at),
    sends: r.sends.map((s) => ({
      ...s,
      sent_at: isoUtc(s.sent_at),
      link_expires_at: isoUtc(s.link_expires_at),
      last_downloaded_at: iso(s.last_downloaded_at),
    })),
  };
}

/** One page of the patient's forms, newest first, each with its sends (aggregated in the statement). */
export async function orderFormsOfPatient(
  db: Queryable,
  patientId: number,
  page: { page: number; perPage: number },
): Promise<{ rows: OrderForm[]; total: number }> {
  const [rows, total] = await Promise.all([
    db.execute<FormRow>(sql`${FORM_SELECT}
      WHERE f.patient_id = ${patientId}
      ORDER BY f.created_at DESC, f.id DESC
      LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`),
    db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM order_forms WHERE patient_id = ${patientId}`,
    ),
  ]);
  return { rows: rows.rows.map(toForm), total: total.rows[0]?.n ?? 0 };
}

export async function orderFormById(db: Queryable, formId: number): Promise<OrderForm | null> {
  const res = await db.execute<FormRow>(sql`${FORM_SELECT} WHERE f.id = ${formId}`);
  return res.rows[0] ? toForm(res.rows[0]) : null;
}

/** Queues the e-mail in the caller's transaction (like `enqueueEmail`), returning its id to follow its delivery. */
export async function queueOrderFormEmail(
  tx: Queryable,
  email: { to: string; subject: string; text: string },
): Promise<number> {
  const res = await tx.execute<{ id: number }>(sql`
    INSERT INTO email_outbox (to_address, subject, body_text, template)
    VALUES (${email.to}, ${email.subject}, ${email.text}, 'order_form') RETURNING id`);
  return Number(res.rows[0]!.id);
}

export async function insertOrderFormSend(
  tx: Queryable,
  s: {
    formId: number;
    kind: 'send' | 'resend';
    to: string;
    recipientName: string | null;
    sentBy: number;
    linkExpiresAt: Date;
  },
): Promise<number> {
  const res = await tx.execute<{ id: number }>(sql`
    INSERT INTO order_form_sends (order_form_id, kind, channel, to_address, recipient_name, sent_by, link_expires_at)
    VALUES (${s.formId}, ${s.kind}, 'email', ${s.to}, ${s.recipientName}, ${s.sentBy}, ${s.linkExpiresAt.toISOString()})
    RETURNING id`);
  return Number(res.rows[0]!.id);
}

export async function attachSendEmail(tx: Queryable, sendId: number, outboxId: number): Promise<void> {
  await tx.execute(sql`UPDATE order_form_sends SET email_outbox_id = ${outboxId} WHERE id = ${sendId}`);
}

export async function markOrderFormSent(
  tx: Queryable,
  formId: number,
  state: 'sent' | 'resent',
): Promise<void> {
  await tx.execute(sql`UPDATE order_forms SET state = ${state}, last_sent_at = now() WHERE id = ${formId}`);
}

/** The send a link names, with its form's PDF; null once the link has expired. */
export async function liveSend(
  db: Queryable,
  sendId: number,
): Promise<{
  form_id: number;
  program_id: number;
  patient_id: number;
  template_name: string;
  pdf_key: string | null;
} | null> {
  const res = await db.execute<{
    form_id: number;
    program_id: number;
    patient_id: number;
    template_name: string;
    pdf_key: string | null;
  }>(sql`
    SELECT f.id AS form_id, f.program_id, f.patient_id, f.template_name, f.pdf_key
    FROM order_form_sends s JOIN order_forms f ON f.id = s.order_form_id
    WHERE s.id = ${sendId} AND s.link_expires_at > now()`);
  const row = res.rows[0];
  return row
    ? {
        ...row,
        form_id: Number(row.form_id),
        program_id: Number(row.program_id),
        patient_id: Number(row.patient_id),
      }
    : null;
}

export async function countLinkDownload(db: Queryable, sendId: number): Promise<void> {
  await db.execute(sql`
    UPDATE order_form_sends SET downloads = downloads + 1, last_downloaded_at = now() WHERE id = ${sendId}`);
}

export async function patientInProgram(
  db: Queryable,
  programId: number,
  patientId: number,
): Promise<boolean> {
  const res = await db.execute(
    sql`SELECT 1 FROM patients WHERE id = ${patientId} AND program_id = ${programId}`,
  );
  return res.rows.length > 0;
}

export async function staffName(db: Queryable, adminId: number): Promise<string> {
  const res = await db.execute<{ name: string }>(
    sql`SELECT given_name || ' ' || family_name AS name FROM admins WHERE id = ${adminId}`,
  );
  return res.rows[0]?.name ?? 'CareDeck';
}
