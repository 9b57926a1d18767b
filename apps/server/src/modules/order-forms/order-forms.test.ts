import { execFileSync } from 'node:child_process';
import { orderFormsContract as c, ORDER_FORM_MESSAGES as M, routeUrl } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { deliverPendingEmails } from '../../platform/outbox/outbox';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
let db: Database;
let program = 0;
let pharmacyProgram = 0;
let foreignProgram = 0;
const patients = { full: 0, sparse: 0, other: 0, foreign: 0, pharmacy: 0 };
const tokens: Record<string, string> = {};
let doctorId = 0;

const call = (as: string | null, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: as ? bearer(tokens[as]!) : {} });
const P = (patient: number, programId = program) => ({ programId, userId: patient });

const DEVICE_ORDER = 1;
const REFILL = 2;
const deviceValues = { device_kind: 'Blood pressure cuff', diagnosis_code: 'I10', quantity: '1' };

const create = (as: string, patient: number, body: Record<string, unknown>, programId = program) =>
  call(as, 'POST', routeUrl(c.create, P(patient, programId)), { user_id: patient, ...body });

const pdfText = (pdf: Buffer) =>
  execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');

async function outbox(after = 0) {
  return (
    await db.execute<{ id: number; to_address: string; subject: string; body_text: string }>(
      sql`SELECT id, to_address, subject, body_text FROM email_outbox WHERE id > ${after} AND template = 'order_form' ORDER BY id`,
    )
  ).rows;
}

beforeAll(async () => {
  const t = await testApp();
  app = t.app;
  db = t.db;
  const g = given(db);
  const enterpriseId = (await g.enterprise()).id;
  program = (await g.program({ enterpriseId, name: 'Forms Monitoring', type: 'monitoring' })).id;
  pharmacyProgram = (await g.program({ enterpriseId, name: 'Forms Pharmacy', type: 'pharmacy' })).id;
  foreignProgram = (await g.program({ enterpriseId: (await g.enterprise()).id })).id;
  const make = async (key: string, input: Parameters<typeof g.admin>[0]) => {
    const a = await g.admin({ hipaaConsented: true, givenName: 'Dana', familyName: key, ...input });
    tokens[key] = (await signIn(app, a.email, FACTORY_PASSWORD)).token;
    return a.id;
  };
  await make('nurse', {
    programRoles: [
      { programId: program, role: 'care_coordinator' },
      { programId: pharmacyProgram, role: 'care_coordinator' },
    ],
  });
  doctorId = await make('doctor', { title: 'MD', programRoles: [{ programId: program, role: 'physician' }] });
  await make('pharmacist', { programRoles: [{ programId: program, role: 'pharmacy' }] });
  await make('pharma', { programRoles: [{ programId: program, role: 'pharma' }] });
  await make('stranger', { programRoles: [{ programId: foreignProgram, role: 'admin' }] });

  patients.full = (await g.patient({ programId: program, firstName: 'Zelda', lastName: 'Quixfield' })).id;
  patients.sparse = (await g.patient({ programId: program, firstName: 'Yuri', lastName: 'Sparseman' })).id;
  patients.other = (await g.patient({ programId: program, firstName: 'Xena', lastName: 'Otherly' })).id;
  patients.foreign = (await g.patient({ programId: foreignProgram, lastName: 'Elsewhere' })).id;
  patients.pharmacy = (await g.patient({ programId: pharmacyProgram, lastName: 'Pillbox' })).id;
  await db.execute(sql`
    UPDATE patients SET dob = '1951-03-14', mrn = 'MRN-77310', sex = 'female', phone_number = '+15551230000',
      address_line1 = '12 Harbor Lane', city = 'Portland', state = 'ME', zip = '04101', physician_id = ${doctorId}
    WHERE id = ${patients.full}`);
  await g.regimen({
    patientId: patients.full,
    programId: program,
    name: 'Lisinopril 10 mg',
    times: ['09:00'],
  });
  await g.device({ programId: program, patientId: patients.full, kind: 'bp_cuff', serial: 'BP-000123' });
});

describe('templates', () => {
  it("lists the program's templates for its program type", async () => {
    const res = await call('nurse', 'GET', routeUrl(c.templates, { programId: program }));
    expect(res.statusCode).toBe(200);
    const codes = res.json().data.map((t: { code: string }) => t.code);
    expect(codes).toEqual([
      'rpm_device_order',
      'refill_authorization',
      'prior_authorization',
      'dispenser_enrolment',
    ]);
    const pharmacy = await call('nurse', 'GET', routeUrl(c.templates, { programId: pharmacyProgram }));
    expect(pharmacy.json().data.map((t: { code: string }) => t.code)).not.toContain('rpm_device_order');
    const order = res.json().data[0];
    expect(order.recipient_kind).toBe('supplier');
    expect(order.fields.find((f: { key: string }) => f.key === 'diagnosis_code')).toMatchObject({
      source: 'staff',
      required: true,
    });
    // The catalogue has no PHI: any role of the program reads it.
    expect((await call('pharma', 'GET', routeUrl(c.templates, { programId: program }))).statusCode).toBe(200);
    expect((await call('stranger', 'GET', routeUrl(c.templates, { programId: program }))).statusCode).toBe(
      404,
    );
  });

  it('prefills each template from the record and names what is missing', async () => {
    const res = await call('nurse', 'GET', routeUrl(c.patientTemplates, P(patients.full)));
    expect(res.statusCode).toBe(200);
    const order = res.json().data.find((t: { id: number }) => t.id === DEVICE_ORDER);
    const value = (k: string) => order.fields.find((f: { key: string }) => f.key === k).value;
    expect(value('patient_name')).toBe('Zelda Quixfield');
    expect(value('date_of_birth')).toBe('1951-03-14');
    expect(value('address')).toBe('12 Harbor Lane\nPortland, ME 04101');
    expect(value('physician')).toBe('Dana doctor, MD');
    expect(value('devices')).toBe('Blood pressure cuff (serial BP-000123)');
    expect(order.missing).toEqual(['device_kind', 'diagnosis_code', 'quantity']);
    const refill = res.json().data.find((t: { id: number }) => t.id === REFILL);
    expect(refill.fields.find((f: { key: string }) => f.key === 'medications').value).toBe(
      'Lisinopril 10 mg (daily at 09:00)',
    );

    const sparse = await call('nurse', 'GET', routeUrl(c.patientTemplates, P(patients.sparse)));
    const sparseOrder = sparse.json().data.find((t: { id: number }) => t.id === DEVICE_ORDER);
    expect(sparseOrder.missing).toEqual([
      'date_of_birth',
      'address',
      'physician',
      'device_kind',
      'diagnosis_code',
      'quantity',
    ]);
  });
});

describe('creating a form', () => {
  it('makes the form with its snapshot and a real PDF → Order Form Generated', async () => {
    const res = await create('nurse', patients.full, {
      orderForm_id: DEVICE_ORDER,
      generatePdf: true,
      fields: { ...deviceValues, notes: 'Large cuff, please.' },
    });
    expect(res.statusCode).toBe(201);
    const { message, data } = res.json();
    expect(message).toBe(M.generated);
    expect(data).toMatchObject({ state: 'created', has_pdf: true, sends: [], recipient: null });
    expect(data.template).toEqual({
      id: DEVICE_ORDER,
      name: 'RPM device order (DME)',
      recipient_kind: 'supplier',
    });
    expect(data.fields.find((f: { key: string }) => f.key === 'diagnosis_code').value).toBe('I10');

    const pdf = await call('nurse', 'GET', routeUrl(c.pdf, { ...P(patients.full), id: data.id }));
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf.rawPayload);
    for (const expected of [
      'RPM device order (DME)',
      'Zelda Quixfield',
      // Days as the English console shows them, MM/DD/YYYY (ADR 054), never ISO.
      '03/14/1951',
      'MRN-77310',
      'I10',
      'Blood pressure cuff',
      'Large cuff, please.',
      'CONFIDENTIAL',
    ])
      expect(text).toContain(expected);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);

    const audits = await db.execute<{ details: { form_id: number; pdf: boolean } }>(
      sql`SELECT details FROM audit_events WHERE action = 'order_form.create' AND subject_id = ${patients.full}`,
    );
    expect(audits.rows[0]?.details).toMatchObject({ form_id: data.id, pdf: true });
    expect(JSON.stringify(audits.rows)).not.toContain('Quixfield');
  });

  it('without generatePdf keeps the data only; the first download renders and keeps the PDF', async () => {
    const res = await create('pharmacist', patients.full, {
      orderForm_id: REFILL,
      generatePdf: false,
      fields: { medication: 'Lisinopril 10 mg tablet', quantity: '30', refills_requested: '3' },
    });
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(data.has_pdf).toBe(false);
    const pdf = await call('pharmacist', 'GET', routeUrl(c.pdf, { ...P(patients.full), id: data.id }));
    expect(pdf.statusCode).toBe(200);
    expect(pdfText(pdf.rawPayload)).toContain('Lisinopril 10 mg tablet');
    const list = await call('pharmacist', 'GET', routeUrl(c.list, P(patients.full)));
    expect(list.json().data.find((f: { id: number }) => f.id === data.id).has_pdf).toBe(true);
  });

  it('asks for record fields the record lacks and takes them from the body', async () => {
    const missing = await create('nurse', patients.sparse, {
      orderForm_id: DEVICE_ORDER,
      fields: deviceValues,
    });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors).sort()).toEqual([
      'fields.address',
      'fields.date_of_birth',
      'fields.physician',
    ]);
    const ok = await create('nurse', patients.sparse, {
      orderForm_id: DEVICE_ORDER,
      fields: {
        ...deviceValues,
        date_of_birth: '1960-01-02',
        address: '1 Elm St\nBoston, MA 02101',
        physician: 'Dr. Ames',
      },
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.fields.find((f: { key: string }) => f.key === 'address').value).toBe(
      '1 Elm St\nBoston, MA 02101',
    );
  });

  it('answers 422 naming the field for missing, malformed or unknown values and bad ids', async () => {
    const errors = async (body: Record<string, unknown>, patient = patients.full) => {
      const res = await create('nurse', patient, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      return res.json().errors as Record<string, string[]>;
    };
    expect(await errors({ orderForm_id: DEVICE_ORDER, fields: {} })).toEqual({
      'fields.device_kind': [M.required],
      'fields.diagnosis_code': [M.required],
      'fields.quantity': [M.required],
    });
    const bad = await errors({
      orderForm_id: DEVICE_ORDER,
      fields: {
        device_kind: 'Toaster',
        diagnosis_code: 'hypertension',
        quantity: '9',
        bogus: 'x',
        devices: 'y',
      },
    });
    expect(bad['fields.device_kind']).toEqual([M.badOption]);
    expect(bad['fields.diagnosis_code']).toEqual(['Use an ICD-10-CM code like I10 or E11.9.']);
    expect(bad['fields.quantity']).toEqual([M.badNumber]);
    expect(bad['fields.bogus']).toEqual([M.notAField]);
    expect(bad['fields.devices']).toEqual([M.notAField]);
    expect(
      await errors({
        orderForm_id: REFILL,
        fields: { medication: 'A\nB', quantity: '1', refills_requested: '1', last_fill_date: '2026-02-30' },
      }),
    ).toEqual({ 'fields.medication': [M.oneLine], 'fields.last_fill_date': [M.badDate] });
    expect(await errors({ orderForm_id: 999, fields: {} })).toEqual({ orderForm_id: [M.templateNotFound] });
    expect(
      await errors({ orderForm_id: DEVICE_ORDER, user_id: patients.other, fields: deviceValues }),
    ).toEqual({
      user_id: [M.otherPatient],
    });
    expect(Object.keys(await errors({ orderForm_id: 'one', generatePdf: 'yes' }))).toEqual(
      expect.arrayContaining(['orderForm_id', 'generatePdf']),
    );
    // A template the program's type does not offer.
    const notOffered = await create(
      'nurse',
      patients.pharmacy,
      { orderForm_id: DEVICE_ORDER, fields: deviceValues },
      pharmacyProgram,
    );
    expect(notOffered.statusCode).toBe(422);
    expect(notOffered.json().errors).toEqual({ orderForm_id: [M.templateNotFound] });
    const count = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM order_forms WHERE patient_id = ${patients.pharmacy}`,
    );
    expect(count.rows[0]?.n).toBe(0);
  });
});

describe('sending', () => {
  let formId = 0;
  beforeAll(async () => {
    formId = (
      await create('nurse', patients.full, {
        orderForm_id: DEVICE_ORDER,
        generatePdf: false,
        fields: deviceValues,
      })
    ).json().data.id;
  });

  it('answers 409 to a resend before the form was sent', async () => {
    const res = await call('nurse', 'POST', routeUrl(c.resend, { ...P(patients.full), id: formId }), {});
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(M.neverSent);
  });

  it('sends an e-mail without PHI whose signed link opens the PDF; state sent, the send recorded and audited', async () => {
    const before = (await outbox()).at(-1)?.id ?? 0;
    const res = await call('nurse', 'POST', routeUrl(c.send, P(patients.full)), {
      order_form_id: formId,
      email: 'orders@medsupply.example',
      recipient_name: 'MedSupply orders desk',
    });
    expect(res.statusCode).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe(M.sent);
    expect(data.state).toBe('sent');
    expect(data.has_pdf).toBe(true);
    expect(data.recipient).toEqual({ to: 'orders@medsupply.example', name: 'MedSupply orders desk' });
    expect(data.sends).toHaveLength(1);
    expect(data.sends[0]).toMatchObject({
      kind: 'send',
      channel: 'email',
      delivery: 'pending',
      downloads: 0,
    });

    const mails = await outbox(before);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.to_address).toBe('orders@medsupply.example');
    for (const phi of ['Zelda', 'Quixfield', '1951', 'MRN-77310', 'Harbor Lane', 'I10', 'Lisinopril'])
      expect(`${mail.subject}\n${mail.body_text}`).not.toContain(phi);
    const link = /(https?:\/\/\S+)/.exec(mail.body_text)?.[1];
    expect(link).toBeDefined();
    const path = new URL(link!).pathname;
    const opened = await call(null, 'GET', path);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toBe('application/pdf');
    expect(pdfText(opened.rawPayload)).toContain('Zelda Quixfield');

    await deliverPendingEmails(db, { send: async () => undefined }, 'caredeck@example.test');
    const list = await call('nurse', 'GET', routeUrl(c.list, P(patients.full)));
    const form = list.json().data.find((f: { id: number }) => f.id === formId);
    expect(form.sends[0]).toMatchObject({ delivery: 'sent', downloads: 1 });
    expect(form.sends[0].last_downloaded_at).not.toBeNull();

    const audits = await db.execute<{ action: string }>(
      sql`SELECT action FROM audit_events WHERE details->>'form_id' = ${String(formId)} ORDER BY id`,
    );
    expect(audits.rows.map((r) => r.action)).toEqual([
      'order_form.create',
      'order_form.send',
      'order_form.link_download',
    ]);
  });

  it('answers 409 to a second send; resend goes again (to the last recipient, or another), state resent', async () => {
    const again = await call('nurse', 'POST', routeUrl(c.send, P(patients.full)), {
      order_form_id: formId,
      email: 'orders@medsupply.example',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(M.alreadySent);

    const before = (await outbox()).at(-1)?.id ?? 0;
    const res = await call('doctor', 'POST', routeUrl(c.resend, { ...P(patients.full), id: formId }), {});
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(M.resent);
    expect(res.json().data.state).toBe('resent');
    expect(res.json().data.sends.map((s: { kind: string }) => s.kind)).toEqual(['resend', 'send']);
    expect(res.json().data.sends[0]).toMatchObject({
      to: 'orders@medsupply.example',
      recipient_name: 'MedSupply orders desk',
    });
    const other = await call('nurse', 'POST', routeUrl(c.resend, { ...P(patients.full), id: formId }), {
      email: 'fax-desk@medsupply.example',
    });
    expect(other.json().data.recipient).toEqual({ to: 'fax-desk@medsupply.example', name: null });
    expect((await outbox(before)).map((m) => m.to_address)).toEqual([
      'orders@medsupply.example',
      'fax-desk@medsupply.example',
    ]);
  });

  it('refuses bad, tampered and expired links with 401', async () => {
    const mail = (await outbox()).at(-1)!;
    const path = new URL(/(https?:\/\/\S+)/.exec(mail.body_text)![1]!).pathname;
    const token = path.split('/').at(-1)!;
    expect((await call(null, 'GET', routeUrl(c.linkPdf, { token: 'nonsense' }))).statusCode).toBe(401);
    const [payload, signature] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify({ s: 1, e: 9_999_999_999 })).toString('base64url')}.${signature}`;
    expect((await call(null, 'GET', routeUrl(c.linkPdf, { token: forged }))).statusCode).toBe(401);
    expect(
      (await call(null, 'GET', routeUrl(c.linkPdf, { token: `${payload}.${signature}` }))).statusCode,
    ).toBe(200);
    await db.execute(sql`UPDATE order_form_sends SET link_expires_at = now() - interval '1 minute'`);
    const expired = await call(null, 'GET', routeUrl(c.linkPdf, { token }));
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe(M.invalidLink);
  });

  it('validates the recipient address', async () => {
    const res = await call('nurse', 'POST', routeUrl(c.send, P(patients.full)), {
      order_form_id: formId,
      email: 'not-an-address',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email).toBeDefined();
  });
});

describe('access', () => {
  let formOfOther = 0;
  beforeAll(async () => {
    formOfOther = (
      await create('nurse', patients.other, {
        orderForm_id: REFILL,
        fields: {
          medication: 'Metformin 500 mg',
          quantity: '60',
          refills_requested: '2',
          date_of_birth: '1970-05-05',
          physician: 'Dr. Ames',
        },
      })
    ).json().data.id;
  });

  it("answers 404 for another patient's form, a patient of another program, and another program's staff", async () => {
    const wrongPatient = { ...P(patients.full), id: formOfOther };
    expect((await call('nurse', 'GET', routeUrl(c.pdf, wrongPatient))).statusCode).toBe(404);
    expect((await call('nurse', 'POST', routeUrl(c.resend, wrongPatient), {})).statusCode).toBe(404);
    const send = await call('nurse', 'POST', routeUrl(c.send, P(patients.full)), {
      order_form_id: formOfOther,
      email: 'a@b.example',
    });
    expect(send.statusCode).toBe(404);
    const foreign = P(patients.foreign);
    expect((await call('nurse', 'GET', routeUrl(c.list, foreign))).statusCode).toBe(404);
    expect((await call('nurse', 'GET', routeUrl(c.patientTemplates, foreign))).statusCode).toBe(404);
    expect(
      (await create('nurse', patients.foreign, { orderForm_id: DEVICE_ORDER, fields: deviceValues }))
        .statusCode,
    ).toBe(404);
    expect((await call('stranger', 'GET', routeUrl(c.list, P(patients.other)))).statusCode).toBe(404);
    expect(
      (await call('stranger', 'GET', routeUrl(c.pdf, { ...P(patients.other), id: formOfOther }))).statusCode,
    ).toBe(404);
    // Nothing was sent.
    const sends = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM order_form_sends WHERE order_form_id = ${formOfOther}`,
    );
    expect(sends.rows[0]?.n).toBe(0);
  });

  it('answers 403 to a role without access (pharma) on the patient calls', async () => {
    const p = P(patients.other);
    expect((await call('pharma', 'GET', routeUrl(c.list, p))).statusCode).toBe(403);
    expect((await call('pharma', 'GET', routeUrl(c.patientTemplates, p))).statusCode).toBe(403);
    expect(
      (await create('pharma', patients.other, { orderForm_id: DEVICE_ORDER, fields: deviceValues }))
        .statusCode,
    ).toBe(403);
    expect((await call('pharma', 'GET', routeUrl(c.pdf, { ...p, id: formOfOther }))).statusCode).toBe(403);
    expect(
      (
        await call('pharma', 'POST', routeUrl(c.send, p), {
          order_form_id: formOfOther,
          email: 'a@b.example',
        })
      ).statusCode,
    ).toBe(403);
    expect((await call('pharma', 'POST', routeUrl(c.resend, { ...p, id: formOfOther }), {})).statusCode).toBe(
      403,
    );
  });

  it('pages the list newest first', async () => {
    const res = await call('nurse', 'GET', `${routeUrl(c.list, P(patients.full))}?per_page=2`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(2);
    expect(body.total).toBe(3);
    expect(body.last_page).toBe(2);
    expect(body.data[0].id).toBeGreaterThan(body.data[1].id);
  });
});
