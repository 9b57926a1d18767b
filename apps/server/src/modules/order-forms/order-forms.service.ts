import { createHmac, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  CARE_ROLES,
  type CreateOrderFormBody,
  isCalendarDay,
  ORDER_FORM_MESSAGES as M,
  ORDER_FORM_LINK_DAYS,
  type OrderFormTemplate,
  orderFormsContract,
  type PatientFact,
  type PatientOrderFormTemplate,
  pageOf,
  routeUrl,
  type StaffRole,
} from '@caredeck/contracts';
import type { Config } from '../../config';
import type { StaffActor } from '../../platform/access/actor';
import { audit, auditView } from '../../platform/audit/audit';
import type { Database, Queryable } from '../../platform/db/client';
import { type FileStorage, newKey } from '../../platform/files/storage';
import { AppError } from '../../platform/http/errors';
import { renderOrderFormPdf } from './order-forms.pdf';
import {
  attachSendEmail,
  countLinkDownload,
  type FormCore,
  insertOrderForm,
  insertOrderFormSend,
  liveSend,
  markOrderFormSent,
  orderFormById,
  orderFormCore,
  orderFormsOfPatient,
  type PatientFacts,
  patientFacts,
  patientInProgram,
  queueOrderFormEmail,
  type SnapshotField,
  setOrderFormPdf,
  staffName,
  templateOfProgram,
  templatesOfProgram,
} from './order-forms.queries';

/** Who makes, sends and reads a patient's order forms: the care roles and the pharmacy (ADR 044). */
export const ORDER_FORM_ROLES: readonly StaffRole[] = [...CARE_ROLES, 'pharmacy'];

const realDay = isCalendarDay;

/** The template's fields with what the record knows; required ones it does not know are missing. */
export function prefill(template: OrderFormTemplate, facts: PatientFacts): PatientOrderFormTemplate {
  const fields = template.fields.map((f) => {
    const value = f.source === 'patient' ? (facts[f.key as PatientFact] ?? null) : null;
    return { ...f, value, missing: f.required && value === null };
  });
  return { ...template, fields, missing: fields.filter((f) => f.missing).map((f) => f.key) };
}

/**
 * The snapshot of a new form: the record's values, and the body's for everything else (staff fields and record
 * fields the record lacks), each checked against its field's type; 422 naming `fields.<key>` otherwise.
 */
export function snapshot(
  template: OrderFormTemplate,
  facts: PatientFacts,
  given: Record<string, string>,
): SnapshotField[] {
  const errors: Record<string, string[]> = {};
  const byKey = new Map(template.fields.map((f) => [f.key, f]));
  for (const key of Object.keys(given))
    if (!byKey.has(key) || byKey.get(key)?.type === 'list') errors[`fields.${key}`] = [M.notAField];
  const fields = template.fields.map((f): SnapshotField => {
    const known = f.source === 'patient' ? (facts[f.key as PatientFact] ?? null) : null;
    if (known !== null || f.type === 'list')
      return { key: f.key, label: f.label, source: f.source, value: known };
    const raw = (given[f.key] ?? '').trim();
    const fail = (message: string) => {
      errors[`fields.${f.key}`] = [message];
    };
    if (raw === '') {
      if (f.required) fail(M.required);
    } else if (f.type === 'textarea') {
      if (raw.length > 2000) fail(M.tooLong);
    } else if (/[\r\n]/.test(raw)) fail(M.oneLine);
    else if (f.type === 'text' && raw.length > 200) fail(M.tooLong);
    else if (f.type === 'date' && !realDay(raw)) fail(M.badDate);
    else if (f.type === 'number') {
      const n = /^-?\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isInteger(n) || (f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max))
        fail(M.badNumber);
    } else if (f.type === 'select' && !f.options?.includes(raw)) fail(M.badOption);
    if (raw !== '' && f.pattern && !errors[`fields.${f.key}`] && !new RegExp(f.pattern).test(raw))
      fail(f.pattern_message ?? M.badOption);
    return { key: f.key, label: f.label, source: f.source, value: raw === '' ? null : raw };
  });
  if (Object.keys(errors).length > 0) throw AppError.validation(errors);
  return fields;
}

type LinkClaims = { s: number; e: number };

export function createOrderFormsService(deps: { db: Database; config: Config; storage: FileStorage }) {
  const { db, config, storage } = deps;
  const key = createHmac('sha256', config.JWT_SECRET).update('caredeck order form link v1').digest();
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  const publicUrl = (config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`).replace(/\/+$/, '');

  function sign(claims: LinkClaims): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${mac(payload)}`;
  }

  /** The claims of a well-formed, correctly signed, unexpired link token; null otherwise. */
  function claimsOf(token: string): LinkClaims | null {
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined) return null;
    const expected = Buffer.from(mac(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LinkClaims;
      if (!Number.isSafeInteger(claims.s) || typeof claims.e !== 'number') return null;
      return claims.e * 1000 > Date.now() ? claims : null;
    } catch {
      return null;
    }
  }

  async function requirePatient(q: Queryable, programId: number, patientId: number) {
    if (!(await patientInProgram(q, programId, patientId))) throw AppError.notFound();
  }

  /**
   * The form's PDF key, rendering the snapshot and storing it when the form has none yet; `stored` collects
   * the keys written so the caller can remove them if its transaction does not commit.
   */
  async function ensurePdf(tx: Queryable, core: FormCore, stored: string[]): Promise<string> {
    if (core.pdf_key) return core.pdf_key;
    const pdf = await renderOrderFormPdf({
      id: core.id,
      templateName: core.template_name,
      recipientKind: core.recipient_kind,
      programName: core.program_name,
      createdAt: core.created_at,
      createdBy: core.created_by_name,
      fields: core.fields,
    });
    const pdfKey = newKey('order-forms');
    await storage.put(pdfKey, Readable.from([pdf]));
    stored.push(pdfKey);
    await setOrderFormPdf(tx, core.id, pdfKey, pdf.length);
    return pdfKey;
  }

  /** Runs a use case that may write files: a file written by a transaction that does not commit is removed. */
  async function withFiles<T>(work: (tx: Queryable, stored: string[]) => Promise<T>): Promise<T> {
    const stored: string[] = [];
    try {
      return await db.transaction((tx) => work(tx, stored));
    } catch (err) {
      await Promise.all(stored.map((k) => storage.remove(k).catch(() => undefined)));
      throw err;
    }
  }

  /** Queues the e-mail of a send: who sent what, and the signed link; no patient information (ADR 044). */
  async function deliver(
    tx: Queryable,
    actor: StaffActor,
    core: FormCore,
    input: { kind: 'send' | 'resend'; to: string; recipientName: string | null },
  ) {
    const expires = new Date(Date.now() + ORDER_FORM_LINK_DAYS * 86_400_000);
    const sendId = await insertOrderFormSend(tx, {
      formId: core.id,
      kind: input.kind,
      to: input.to,
      recipientName: input.recipientName,
      sentBy: actor.adminId,
      linkExpiresAt: expires,
    });
    const token = sign({ s: sendId, e: Math.floor(expires.getTime() / 1000) });
    const link = `${publicUrl}${routeUrl(orderFormsContract.linkPdf, { token })}`;
    const sender = await staffName(tx, actor.adminId);
    const outboxId = await queueOrderFormEmail(tx, {
      to: input.to,
      subject: `${core.program_name}: ${core.template_name} (form no. ${core.id})`,
      text: [
        `Hello${input.recipientName ? ` ${input.recipientName}` : ''},`,
        '',
        `${sender} of the ${core.program_name} care team has ${input.kind === 'resend' ? 'sent you again' : 'sent you'} a document: ${core.template_name} (form no. ${core.id}).`,
        '',
        `Open it here (the link works until ${expires.toISOString().slice(0, 16).replace('T', ' ')} UTC):`,
        link,
        '',
        'To protect the patient’s privacy this message carries no health information: the document is behind the link.',
        'If you did not expect it, please ignore this message and let the sender know.',
        '',
        '— CareDeck',
      ].join('\n'),
    });
    await attachSendEmail(tx, sendId, outboxId);
    await markOrderFormSent(tx, core.id, input.kind === 'send' ? 'sent' : 'resent');
    await audit(tx, {
      actorAdminId: actor.adminId,
      programId: core.program_id,
      action: `order_form.${input.kind}`,
      subjectType: 'patient',
      subjectId: Number(core.patient_id),
      details: { form_id: core.id, send_id: sendId, channel: 'email', recipient_kind: core.recipient_kind },
      ip: actor.ip,
    });
  }

  return {
    /** GET {P}/forms: the program's templates (no PHI: any role of the program). */
    async templates(programId: number) {
      return { data: await templatesOfProgram(db, programId) };
    },

    /** GET {P}/users/{id}/order-form/forms: each template with the record's values and what is missing. */
    async patientTemplates(actor: StaffActor, programId: number, patientId: number) {
      const [facts, templates] = await Promise.all([
        patientFacts(db, programId, patientId),
        templatesOfProgram(db, programId),
      ]);
      if (!facts) throw AppError.notFound();
      await auditView(db, {
        actorAdminId: actor.adminId,
        programId,
        action: 'order_form.prefill_view',
        subjectType: 'patient',
        subjectId: patientId,
        ip: actor.ip,
      });
      return { data: templates.map((t) => prefill(t, facts)) };
    },

    async list(
      actor: StaffActor,
      programId: number,
      patientId: number,
      q: { page: number; per_page: number },
    ) {
      await requirePatient(db, programId, patientId);
      const { rows, total } = await orderFormsOfPatient(db, patientId, { page: q.page, perPage: q.per_page });
      await auditView(db, {
        actorAdminId: actor.adminId,
        programId,
        action: 'order_form.list_view',
        subjectType: 'patient',
        subjectId: patientId,
        details: { rows: rows.length },
        ip: actor.ip,
      });
      return pageOf(rows, q, total);
    },

    /** POST .../order-form/create: the form from a template, its snapshot, and with generatePdf its PDF. */
    async create(
      actor: StaffActor,
      programId: number,
      patientId: number,
      body: {
        orderForm_id: number;
        user_id: number;
        generatePdf: boolean;
        fields: CreateOrderFormBody['fields'];
      },
    ) {
      if (body.user_id !== patientId) throw AppError.validation({ user_id: [M.otherPatient] });
      const formId = await withFiles(async (tx, stored) => {
        const facts = await patientFacts(tx, programId, patientId);
        if (!facts) throw AppError.notFound();
        const template = await templateOfProgram(tx, programId, body.orderForm_id);
        if (!template) throw AppError.validation({ orderForm_id: [M.templateNotFound] });
        const fields = snapshot(template, facts, body.fields ?? {});
        const id = await insertOrderForm(tx, {
          programId,
          patientId,
          template,
          fields,
          createdBy: actor.adminId,
        });
        if (body.generatePdf) {
          const core = await orderFormCore(tx, patientId, id);
          await ensurePdf(tx, core!, stored);
        }
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'order_form.create',
          subjectType: 'patient',
          subjectId: patientId,
          details: { form_id: id, template_id: template.id, pdf: body.generatePdf },
          ip: actor.ip,
        });
        return id;
      });
      return { message: M.generated, data: (await orderFormById(db, formId))! };
    },

    /** POST .../order-form/send: a created form, once; a form already sent is resent instead (409). */
    async send(
      actor: StaffActor,
      programId: number,
      patientId: number,
      body: { order_form_id: number; email: string; recipient_name?: string | null },
    ) {
      await withFiles(async (tx, stored) => {
        await requirePatient(tx, programId, patientId);
        const core = await orderFormCore(tx, patientId, body.order_form_id, { lock: true });
        if (!core || core.program_id !== programId) throw AppError.notFound(M.notFound);
        if (core.state !== 'created') throw AppError.conflict(M.alreadySent);
        await ensurePdf(tx, core, stored);
        await deliver(tx, actor, core, {
          kind: 'send',
          to: body.email,
          recipientName: body.recipient_name ?? null,
        });
      });
      return { message: M.sent, data: (await orderFormById(db, body.order_form_id))! };
    },

    /** POST .../order-form/{id}/resend: a sent form again, to the last recipient unless another is given. */
    async resend(
      actor: StaffActor,
      programId: number,
      patientId: number,
      formId: number,
      body: { email?: string; recipient_name?: string | null },
    ) {
      await withFiles(async (tx, stored) => {
        await requirePatient(tx, programId, patientId);
        const core = await orderFormCore(tx, patientId, formId, { lock: true });
        if (!core || core.program_id !== programId) throw AppError.notFound(M.notFound);
        if (core.state === 'created' || !core.last_to) throw AppError.conflict(M.neverSent);
        await ensurePdf(tx, core, stored);
        const to = body.email ?? core.last_to;
        await deliver(tx, actor, core, {
          kind: 'resend',
          to,
          recipientName:
            body.recipient_name !== undefined
              ? body.recipient_name
              : body.email
                ? null
                : core.last_recipient_name,
        });
      });
      return { message: M.resent, data: (await orderFormById(db, formId))! };
    },

    /** GET .../order-form/{id}/pdf: the stored PDF, rendered from the snapshot first if the form has none. */
    async pdf(actor: StaffActor, programId: number, patientId: number, formId: number) {
      const pdfKey = await withFiles(async (tx, stored) => {
        await requirePatient(tx, programId, patientId);
        const core = await orderFormCore(tx, patientId, formId, { lock: true });
        if (!core || core.program_id !== programId) throw AppError.notFound(M.notFound);
        const k = await ensurePdf(tx, core, stored);
        await audit(tx, {
          actorAdminId: actor.adminId,
          programId,
          action: 'order_form.pdf_download',
          subjectType: 'patient',
          subjectId: patientId,
          details: { form_id: formId, rendered: stored.length > 0 },
          ip: actor.ip,
        });
        return k;
      });
      const file = await storage.open(pdfKey);
      return { ...file, fileName: `order-form-${formId}.pdf` };
    },

    /** GET order-form-links/{token}: the recipient's download; 401 for a bad or expired link. */
    async linkPdf(token: string, ip: string) {
      const claims = claimsOf(token);
      const send = claims ? await liveSend(db, claims.s) : null;
      if (!claims || !send?.pdf_key) throw AppError.unauthenticated(M.invalidLink);
      const file = await storage.open(send.pdf_key);
      await db.transaction(async (tx) => {
        await countLinkDownload(tx, claims.s);
        await audit(tx, {
          actorAdminId: null,
          actorRealm: 'system',
          programId: send.program_id,
          action: 'order_form.link_download',
          subjectType: 'patient',
          subjectId: send.patient_id,
          details: { form_id: send.form_id, send_id: claims.s },
          ip,
        });
      });
      return { ...file, fileName: `order-form-${send.form_id}.pdf` };
    },
  };
}

export type OrderFormsService = ReturnType<typeof createOrderFormsService>;
