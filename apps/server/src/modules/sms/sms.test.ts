import {
  alertsContract,
  smsContract as c,
  type RouteContract,
  routeUrl,
  SMS_SIGNATURE_HEADER,
  SMS_TIMESTAMP_HEADER,
} from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { createGroup } from '../groups/groups.factories';
import { FACTORY_PASSWORD } from '../identity/identity.factories';
import { signSmsWebhook } from './sms.transport';

const SECRET = 'sms-webhook-secret-for-tests';
let app: App;
let db: Database;
const token = { coordinator: '', outsider: '' };
const program = { a: 0, other: 0 };
const patient = { a: 0, noPhone: 0, foreign: 0 };
const PHONE = '+14125550111';

const url = (
  contract: RouteContract,
  params?: Record<string, number | string>,
  query?: Record<string, string>,
) => routeUrl(contract, params, query);
const call = (as: string, method: string, target: string, payload?: unknown) =>
  app.inject({ method: method as 'GET', url: target, payload: payload as object, headers: bearer(as) });

function webhook(target: string, body: object, opts: { secret?: string; at?: number } = {}) {
  const raw = JSON.stringify(body);
  const at = String(opts.at ?? Math.floor(Date.now() / 1000));
  return app.inject({
    method: 'POST',
    url: target,
    payload: raw,
    headers: {
      'content-type': 'application/json',
      [SMS_TIMESTAMP_HEADER]: at,
      [SMS_SIGNATURE_HEADER]: signSmsWebhook(opts.secret ?? SECRET, at, raw),
    },
  });
}
const thread = async () =>
  (
    await call(token.coordinator, 'GET', url(c.thread, { programId: program.a, patientId: patient.a }))
  ).json();

beforeAll(async () => {
  ({ app, db } = await testApp({ SMS_WEBHOOK_SECRET: SECRET }));
  const g = given(db);
  program.a = (await g.program()).id;
  program.other = (await g.program()).id;
  patient.a = (await g.patient({ programId: program.a, phoneNumber: PHONE })).id;
  patient.noPhone = (await g.patient({ programId: program.a, phoneNumber: null })).id;
  patient.foreign = (await g.patient({ programId: program.other, phoneNumber: '+14125550112' })).id;
  const signed = async (programId: number) => {
    const admin = await g.admin({
      hipaaConsented: true,
      programRoles: [{ programId, role: 'care_coordinator' }],
    });
    return (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  };
  token.coordinator = await signed(program.a);
  token.outsider = await signed(program.other);
});

describe('SMS to patients', () => {
  it('queues a text in the outbox, delivers it through the log transport, and shows it in the thread', async () => {
    const sent = await call(
      token.coordinator,
      'POST',
      url(c.send, { programId: program.a, patientId: patient.a }),
      {
        message: 'Reminder: evening dose at 8 pm',
      },
    );
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().data).toMatchObject({ direction: 'outbound', status: 'queued', phone: PHONE });
    expect(await app.smsOutbox.deliver()).toBeGreaterThanOrEqual(1);
    const list = await thread();
    expect(list.data[0]).toMatchObject({
      body: 'Reminder: evening dose at 8 pm',
      status: 'delivered',
      attempts: 1,
    });
    expect(list.data[0].sent_by).toEqual(expect.objectContaining({ name: expect.any(String) }));
    // Nothing is sent twice.
    expect(await app.smsOutbox.deliver()).toBe(0);
  });

  it('answers 422, 404 and 401 as it should', async () => {
    const none = await call(
      token.coordinator,
      'POST',
      url(c.send, { programId: program.a, patientId: patient.noPhone }),
      {
        message: 'hi',
      },
    );
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.phone_number).toEqual(['The patient has no mobile phone number.']);
    const blank = await call(
      token.coordinator,
      'POST',
      url(c.send, { programId: program.a, patientId: patient.a }),
      {
        message: '  ',
      },
    );
    expect(blank.statusCode).toBe(422);
    const badPhone = await call(
      token.coordinator,
      'POST',
      url(c.send, { programId: program.a, patientId: patient.a }),
      {
        message: 'x',
        phone_number: 'abc',
      },
    );
    expect(badPhone.statusCode).toBe(422);
    expect(
      (
        await call(
          token.coordinator,
          'GET',
          url(c.thread, { programId: program.a, patientId: patient.foreign }),
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (await call(token.outsider, 'GET', url(c.thread, { programId: program.a, patientId: patient.a })))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: url(c.thread, { programId: program.a, patientId: patient.a }),
        })
      ).statusCode,
    ).toBe(401);
  });

  it("lands a signed reply from the patient's phone in the thread, once; refuses unsigned, stale or forged ones", async () => {
    const reply = { id: 'prov-1', from: '(412) 555-0111', body: 'Taken, thanks' };
    expect((await webhook(url(c.inbound), reply)).statusCode).toBe(200);
    expect((await webhook(url(c.inbound), reply)).statusCode).toBe(200);
    let list = await thread();
    expect(list.data.filter((m: { body: string }) => m.body === 'Taken, thanks')).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ direction: 'inbound', status: 'received', is_read: false });
    expect(list.unread).toBe(1);
    const read = await call(
      token.coordinator,
      'GET',
      url(c.markRead, { programId: program.a, patientId: patient.a }),
    );
    expect(read.json()).toMatchObject({ count: 1 });
    list = await thread();
    expect(list.unread).toBe(0);

    expect(
      (await webhook(url(c.inbound), { ...reply, id: 'prov-2' }, { secret: 'another-secret-of-16chars' }))
        .statusCode,
    ).toBe(401);
    expect(
      (
        await webhook(
          url(c.inbound),
          { ...reply, id: 'prov-3' },
          { at: Math.floor(Date.now() / 1000) - 3600 },
        )
      ).statusCode,
    ).toBe(401);
    const unsigned = await app.inject({
      method: 'POST',
      url: url(c.inbound),
      payload: { ...reply, id: 'prov-4' },
    });
    expect(unsigned.statusCode).toBe(401);
  });

  it('raises a text_messages alert while a reply is unread, resolved once the thread is read', async () => {
    await webhook(url(c.inbound), { id: 'alert-1', from: PHONE, body: 'I feel dizzy' });
    await app.alertEngine.sweep();
    const open = await db.execute<{ status: string; summary: string }>(sql`
      SELECT status, summary FROM alerts WHERE patient_id = ${patient.a} AND type = 'text_messages'`);
    expect(open.rows).toEqual([{ status: 'open', summary: '1 unread text from the patient.' }]);
    await call(token.coordinator, 'GET', url(c.markRead, { programId: program.a, patientId: patient.a }));
    await app.alertEngine.sweep();
    const after = await db.execute<{ status: string }>(sql`
      SELECT status FROM alerts WHERE patient_id = ${patient.a} AND type = 'text_messages'`);
    expect(after.rows).toEqual([{ status: 'resolved' }]);
  });

  it('honours STOP and START', async () => {
    await webhook(url(c.inbound), { id: 'stop-1', from: PHONE, body: ' stop ' });
    expect((await thread()).opted_out).toBe(true);
    const refused = await call(
      token.coordinator,
      'POST',
      url(c.send, { programId: program.a, patientId: patient.a }),
      {
        message: 'Are you there?',
      },
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.phone_number[0]).toMatch(/opted out/);
    await webhook(url(c.inbound), { id: 'start-1', from: PHONE, body: 'START' });
    expect((await thread()).opted_out).toBe(false);
    const again = await call(
      token.coordinator,
      'POST',
      url(c.send, { programId: program.a, patientId: patient.a }),
      {
        message: 'Welcome back',
      },
    );
    expect(again.statusCode).toBe(201);
  });

  it('keeps texts of unknown numbers as temp messages of the program that texted them, and marks them read', async () => {
    const other = '+14125550199';
    const sent = await call(token.coordinator, 'POST', url(c.tempMessage, { programId: program.a }), {
      phone_number: '412-555-0199',
      message: 'Please call us back about your father',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    await webhook(url(c.inbound), { id: 'temp-1', from: other, body: 'Who is this?' });
    const history = await call(token.coordinator, 'GET', url(c.tempHistory, { phone: other }));
    expect(history.statusCode, history.body).toBe(200);
    const rows = history.json().data;
    expect(rows.map((m: { body: string }) => m.body)).toEqual([
      'Who is this?',
      'Please call us back about your father',
    ]);
    // Another program's staff see nothing of it.
    expect((await call(token.outsider, 'GET', url(c.tempHistory, { phone: other }))).json().data).toEqual([]);
    expect((await call(token.outsider, 'GET', url(c.tempThreads))).json().data).toEqual([]);
    expect(
      (await call(token.outsider, 'GET', url(c.tempThreads, {}, { program_id: String(program.a) })))
        .statusCode,
    ).toBe(404);
    // The number is listed with its latest text and one unread, and the temp tile counts it.
    const threads = await call(
      token.coordinator,
      'GET',
      url(c.tempThreads, {}, { program_id: String(program.a) }),
    );
    expect(threads.json().data).toEqual([
      expect.objectContaining({
        phone: other,
        last_body: 'Who is this?',
        last_direction: 'inbound',
        unread: 1,
        total: 2,
      }),
    ]);
    const tempTile = async () =>
      (
        (
          await call(
            token.coordinator,
            'GET',
            url(alertsContract.groups, {}, { program_id: String(program.a) }),
          )
        ).json().data as { type: string; count: number }[]
      ).find((t) => t.type === 'temp_text_messages')?.count;
    expect(await tempTile()).toBe(1);
    const unread = rows.find((m: { direction: string }) => m.direction === 'inbound');
    const marked = await call(token.coordinator, 'POST', url(c.markTempRead), { msg_ids: [unread.id] });
    expect(marked.json().ids).toEqual([unread.id]);
    expect(await tempTile()).toBe(0);
    // Another tenant's message, alone or among one's own: 404, and nothing is marked (ADR 062).
    expect(
      (await call(token.outsider, 'POST', url(c.markTempRead), { msg_ids: [unread.id] })).statusCode,
    ).toBe(404);
    expect(
      (await call(token.coordinator, 'GET', url(c.tempHistory, { phone: 'not-a-phone' }))).statusCode,
    ).toBe(422);
  });

  it('texts every patient of a cohort with a phone, and keeps the history with the delivery counts', async () => {
    const optedOut = (await given(db).patient({ programId: program.a, phoneNumber: '+14125550177' })).id;
    await webhook(url(c.inbound), { id: 'group-stop', from: '+14125550177', body: 'STOP' });
    const cohort = await createGroup(db, {
      programId: program.a,
      patientIds: [patient.a, patient.noPhone, optedOut],
    });
    const sent = await call(token.coordinator, 'POST', url(c.groupSend, { id: cohort.id }), {
      message: 'The clinic is closed on Thursday.',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().data).toMatchObject({
      body: 'The clinic is closed on Thursday.',
      recipients: 2,
      skipped: 1,
      statuses: { queued: 1, blocked: 1 },
    });
    await app.smsOutbox.deliver();
    const history = await call(token.coordinator, 'GET', url(c.groupHistory, { id: cohort.id }));
    expect(history.json()).toMatchObject({
      total: 1,
      data: [{ statuses: { delivered: 1, blocked: 1, queued: 0 } }],
    });
    // The text is in the patient's own thread too.
    const thread = await call(
      token.coordinator,
      'GET',
      url(c.thread, { programId: program.a, patientId: patient.a }),
    );
    expect(thread.json().data[0].body).toBe('The clinic is closed on Thursday.');
    // Another program's staff: 404; an empty message: 422; a cohort without phones: 422.
    expect(
      (await call(token.outsider, 'POST', url(c.groupSend, { id: cohort.id }), { message: 'x' })).statusCode,
    ).toBe(404);
    expect((await call(token.outsider, 'GET', url(c.groupHistory, { id: cohort.id }))).statusCode).toBe(404);
    expect(
      (await call(token.coordinator, 'POST', url(c.groupSend, { id: cohort.id }), { message: ' ' }))
        .statusCode,
    ).toBe(422);
    const silent = await createGroup(db, { programId: program.a, patientIds: [patient.noPhone] });
    const none = await call(token.coordinator, 'POST', url(c.groupSend, { id: silent.id }), {
      message: 'Hello',
    });
    expect(none.json().errors).toEqual({ message: ['No patient of this cohort has a mobile phone number.'] });
  });

  it('retries a failed delivery with backoff and keeps the message', async () => {
    const down = await testApp({ SMS_PROVIDER_URL: 'http://user:pass@127.0.0.1:9/messages' });
    const g = given(down.db);
    const p = (await g.program()).id;
    const pt = (await g.patient({ programId: p, phoneNumber: '+14125550177' })).id;
    await down.db.execute(sql`
      INSERT INTO sms_messages (program_id, patient_id, phone, direction, body, kind, status)
      VALUES (${p}, ${pt}, '+14125550177', 'outbound', 'hello', 'message', 'queued')`);
    await down.app.smsOutbox.deliver();
    const row = await down.db.execute<{ status: string; attempts: number; later: boolean }>(sql`
      SELECT status, attempts, next_attempt_at > now() AS later FROM sms_messages WHERE patient_id = ${pt}`);
    expect(row.rows[0]).toEqual({ status: 'queued', attempts: 1, later: true });
  });
});
