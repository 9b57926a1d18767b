import {
  notificationsContract as c,
  messengerContract as m,
  type RouteContract,
  routeUrl,
} from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
let database: Parameters<typeof given>[0];
const token = { ann: '', ben: '', outsider: '' };
const ids = { ann: 0, ben: 0 };
const program = { a: 0, other: 0 };
const patient = { a: 0, quiet: 0, foreign: 0 };

const url = (contract: RouteContract, params?: Record<string, number>, query?: Record<string, string>) =>
  routeUrl(contract, params, query);
const call = (as: string, method: string, target: string, payload?: unknown) =>
  app.inject({ method: method as 'GET', url: target, payload: payload as object, headers: bearer(as) });

beforeAll(async () => {
  let db: Parameters<typeof given>[0];
  ({ app, db } = await testApp());
  database = db;
  const g = given(db);
  program.a = (await g.program()).id;
  program.other = (await g.program()).id;
  patient.a = (
    await g.patient({ programId: program.a, phoneNumber: '+14125550141', email: 'rosa@example.com' })
  ).id;
  patient.quiet = (await g.patient({ programId: program.a, phoneNumber: '+14125550142' })).id;
  patient.foreign = (await g.patient({ programId: program.other })).id;
  await db.$client.query(
    `UPDATE patients SET notification_settings = '{"sms": false, "email": false, "push": false}' WHERE id = $1`,
    [patient.quiet],
  );
  const make = async (programId: number) => {
    const admin = await g.admin({
      hipaaConsented: true,
      programRoles: [{ programId, role: 'care_coordinator' }],
    });
    return { id: admin.id, token: (await signIn(app, admin.email, FACTORY_PASSWORD)).token };
  };
  const ann = await make(program.a);
  const ben = await make(program.a);
  token.ann = ann.token;
  token.ben = ben.token;
  ids.ann = ann.id;
  ids.ben = ben.id;
  token.outsider = (await make(program.other)).token;
});

describe('patient notifications', () => {
  it('sends by SMS through the outbox and lists the history with the delivery state', async () => {
    const sent = await call(token.ann, 'POST', url(c.send, { programId: program.a, id: patient.a }), {
      type: 'sms',
      title: 'Refill',
      body: 'Your refill is ready for pickup.',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().data).toMatchObject({ type: 'sms', status: 'queued', title: 'Refill' });
    await app.smsOutbox.deliver();
    const mail = await call(token.ann, 'POST', url(c.send, { programId: program.a, id: patient.a }), {
      type: 'email',
      title: 'Your visit',
      body: 'See you on Monday.',
    });
    expect(mail.json().data.status).toBe('sent');
    const history = await call(token.ben, 'GET', url(c.history, { programId: program.a, id: patient.a }));
    expect(history.json().data.map((n: { type: string; status: string }) => [n.type, n.status])).toEqual([
      ['email', 'sent'],
      ['sms', 'delivered'],
    ]);
  });

  it('needs the patient to have opted in to the channel, or the sender to confirm they just did', async () => {
    const refused = await call(token.ann, 'POST', url(c.send, { programId: program.a, id: patient.quiet }), {
      type: 'sms',
      title: 'Hi',
      body: 'Test',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.opted_in).toBeDefined();
    const confirmed = await call(
      token.ann,
      'POST',
      url(c.send, { programId: program.a, id: patient.quiet }),
      {
        type: 'sms',
        title: 'Hi',
        body: 'Test',
        opted_in: true,
      },
    );
    expect(confirmed.statusCode).toBe(201);
    const noEmail = await call(token.ann, 'POST', url(c.send, { programId: program.a, id: patient.quiet }), {
      type: 'email',
      title: 'Hi',
      body: 'Test',
      opted_in: true,
    });
    expect(noEmail.json().errors.type).toEqual(['The patient has no e-mail address.']);
    expect(
      (
        await call(token.ann, 'POST', url(c.send, { programId: program.a, id: patient.foreign }), {
          type: 'sms',
          title: 'x',
          body: 'y',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await call(token.outsider, 'GET', url(c.history, { programId: program.a, id: patient.a }))).statusCode,
    ).toBe(404);
    expect(
      (
        await call(token.ann, 'POST', url(c.send, { programId: program.a, id: patient.a }), {
          type: 'fax',
          title: 'x',
          body: 'y',
        })
      ).statusCode,
    ).toBe(422);
  });
});

describe('recurring reminders', () => {
  it('schedules a reminder on weekdays, sends it when due, moves it on, and stops it', async () => {
    const made = await call(token.ann, 'POST', url(c.schedule, { programId: program.a, id: patient.a }), {
      type: 'sms',
      title: 'Evening dose',
      body: 'Time for your evening medication.',
      time: '20:00',
      days: [5, 1, 3, 1],
      start_date: '2026-01-01',
    });
    expect(made.statusCode, made.body).toBe(201);
    const schedule = made.json().data;
    expect(schedule).toMatchObject({ days: [1, 3, 5], time: '20:00', active: true, sent: 0, end_date: null });
    expect(Date.parse(schedule.next_at)).toBeGreaterThan(Date.now());

    // Due now: sent once as an SMS notification, then moved to its next weekday.
    await database.execute(
      sql`UPDATE notification_schedules SET next_at = now() - interval '1 minute' WHERE id = ${schedule.id}`,
    );
    expect(await app.reminders.sendDue()).toBe(1);
    expect(await app.reminders.sendDue()).toBe(0);
    const history = await call(token.ann, 'GET', url(c.history, { programId: program.a, id: patient.a }));
    expect(history.json().data[0]).toMatchObject({ type: 'sms', title: 'Evening dose', sent_by: null });
    const listed = await call(token.ann, 'GET', url(c.schedules, { programId: program.a, id: patient.a }));
    expect(listed.json().data[0]).toMatchObject({ id: schedule.id, sent: 1, active: true });
    expect(Date.parse(listed.json().data[0].next_at)).toBeGreaterThan(Date.now());

    const stopped = await call(
      token.ben,
      'DELETE',
      url(c.stopSchedule, { programId: program.a, id: patient.a, scheduleId: schedule.id }),
    );
    expect(stopped.json()).toMatchObject({
      message: 'Reminder stopped',
      data: { active: false, next_at: null },
    });
    expect(
      (
        await call(
          token.outsider,
          'DELETE',
          url(c.stopSchedule, { programId: program.a, id: patient.a, scheduleId: schedule.id }),
        )
      ).statusCode,
    ).toBe(404);
  });

  it('refuses reminders that cannot reach the patient or would never be sent', async () => {
    const base = { type: 'sms', title: 'x', body: 'y', time: '08:00', days: [1], start_date: '2026-01-01' };
    const quiet = await call(
      token.ann,
      'POST',
      url(c.schedule, { programId: program.a, id: patient.quiet }),
      { ...base, type: 'push' },
    );
    expect(quiet.statusCode, quiet.body).toBe(422);
    expect(quiet.json().errors).toEqual({
      opted_in: [
        'The patient has not opted in to this kind of notification. Confirm they agree (opted_in) to send it.',
      ],
    });
    const never = await call(token.ann, 'POST', url(c.schedule, { programId: program.a, id: patient.a }), {
      ...base,
      start_date: '2020-01-01',
      end_date: '2020-01-02',
    });
    expect(never.json().errors.days).toBeDefined();
    const backwards = await call(
      token.ann,
      'POST',
      url(c.schedule, { programId: program.a, id: patient.a }),
      {
        ...base,
        start_date: '2027-01-02',
        end_date: '2027-01-01',
      },
    );
    expect(backwards.json().errors.end_date).toEqual(['The last day must be on or after the first.']);
    expect(
      (await call(token.ann, 'POST', url(c.schedule, { programId: program.a, id: patient.foreign }), base))
        .statusCode,
    ).toBe(404);
  });
});

describe('audio reminders', () => {
  it('lists the library and assigns audios to patients of the program', async () => {
    const library = await call(token.ann, 'GET', url(c.audios));
    expect(library.json().data.length).toBeGreaterThan(5);
    const audioIds = library
      .json()
      .data.slice(0, 2)
      .map((a: { id: number }) => a.id);
    const assigned = await call(token.ann, 'POST', url(c.assignAudio, { programId: program.a }), {
      date: '2026-12-01',
      time: '08:30',
      numToEnd: 14,
      patientIds: [patient.a, patient.quiet],
      audioIds,
    });
    expect(assigned.statusCode, assigned.body).toBe(201);
    expect(assigned.json()).toEqual({ message: 'Audios Assigned!', assigned: 4 });
    const foreign = await call(token.ann, 'POST', url(c.assignAudio, { programId: program.a }), {
      date: '2026-12-01',
      time: '08:30',
      numToEnd: 14,
      patientIds: [patient.foreign],
      audioIds,
    });
    expect(foreign.statusCode).toBe(422);
    const bad = await call(token.ann, 'POST', url(c.assignAudio, { programId: program.a }), {
      date: '2026-02-30',
      time: '25:00',
      numToEnd: 0,
      patientIds: [],
      audioIds: [999],
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['date', 'numToEnd', 'patientIds', 'time']);
    const good = { date: '2026-12-01', time: '08:30', numToEnd: 3, patientIds: [patient.a], audioIds };
    // The contracts' one date parser refuses a day that does not exist (issue 28 item 4), before the service's own check.
    const noDay = await call(token.ann, 'POST', url(c.assignAudio, { programId: program.a }), {
      ...good,
      date: '2026-02-30',
    });
    expect(noDay.json().errors.date).toEqual(['Enter the date as YYYY-MM-DD.']);
    const noAudio = await call(token.ann, 'POST', url(c.assignAudio, { programId: program.a }), {
      ...good,
      audioIds: [999],
    });
    expect(noAudio.json().errors.audioIds).toEqual(['Choose audios from the library.']);

    // The patient's reminders: each audio with its first and last day; nothing of them outside the program.
    const listed = await call(
      token.ann,
      'GET',
      url(c.audioAssignments, { programId: program.a, id: patient.a }),
    );
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toHaveLength(2);
    expect(listed.json().data[0]).toMatchObject({
      start_date: '2026-12-01',
      end_date: '2026-12-14',
      at_time: '08:30',
      times: 14,
      audio: { id: expect.any(Number), name: expect.any(String) },
      assigned_by: { id: ids.ann },
    });
    expect(
      (await call(token.ann, 'GET', url(c.audioAssignments, { programId: program.a, id: patient.foreign })))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(token.outsider, 'GET', url(c.audioAssignments, { programId: program.a, id: patient.a })))
        .statusCode,
    ).toBe(404);
  });
});

describe('the staff notification bell', () => {
  it("lists the user's notifications of the program and marks some read", async () => {
    await call(token.ann, 'POST', url(m.create), { program_id: program.a, name: 'Bell', users: [ids.ben] });
    const bell = await call(token.ben, 'GET', url(c.staff, { programId: program.a }));
    expect(bell.statusCode, bell.body).toBe(200);
    expect(bell.json().unread).toBe(1);
    const id = bell.json().data[0].id;
    const read = await call(
      token.ben,
      'GET',
      url(c.readAt, { programId: program.a }, { notification_ids: String(id) }),
    );
    expect(read.json().count).toBe(1);
    expect((await call(token.ben, 'GET', url(c.staff, { programId: program.a }))).json().unread).toBe(0);
    expect(
      (await call(token.ben, 'GET', url(c.readAt, { programId: program.a }, { notification_ids: 'a,b' })))
        .statusCode,
    ).toBe(422);
  });
});
