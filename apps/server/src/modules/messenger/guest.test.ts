import {
  messengerContract as c,
  guestContract as g,
  type RouteContract,
  routeUrl,
} from '@caredeck/contracts';
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
const staff = { ann: { id: 0, token: '' }, ben: { id: 0, token: '' }, out: { id: 0, token: '' } };
const program = { a: 0, other: 0 };
const patient = { a: 0, noContact: 0, foreign: 0 };

const url = (contract: RouteContract, params?: Record<string, number>, query?: Record<string, string>) =>
  routeUrl(contract, params, query);
const call = (as: string, method: string, target: string, payload?: unknown) =>
  app.inject({ method: method as 'GET', url: target, payload: payload as object, headers: bearer(as) });
const asGuest = (token: string, method: string, target: string, payload?: unknown) =>
  app.inject({
    method: method as 'GET',
    url: target,
    payload: payload as object,
    headers: { authorization: `Guest ${token}` },
  });

async function conversation(name: string) {
  const res = await call(staff.ann.token, 'POST', url(c.create), {
    program_id: program.a,
    name,
    users: [staff.ben.id],
  });
  return res.json().data.id as number;
}

/** Invites patient A to the conversation by SMS and reads the link token from the queued text. */
async function invite(conversationId: number) {
  const res = await call(
    staff.ann.token,
    'GET',
    url(
      g.invite,
      { programId: program.a, receiverId: patient.a },
      { conversation_id: String(conversationId) },
    ),
  );
  expect(res.statusCode, res.body).toBe(200);
  const sms = await db.execute<{ body: string }>(
    sql`SELECT body FROM sms_messages WHERE patient_id = ${patient.a} AND kind = 'guest_invite' ORDER BY id DESC LIMIT 1`,
  );
  const token = /token=([A-Za-z0-9_.-]+)/.exec(sms.rows[0]!.body)![1]!;
  return { invite: res.json().data, token };
}

beforeAll(async () => {
  ({ app, db } = await testApp());
  const gv = given(db);
  program.a = (await gv.program()).id;
  program.other = (await gv.program()).id;
  patient.a = (
    await gv.patient({
      programId: program.a,
      firstName: 'Rosa',
      lastName: 'Hills',
      phoneNumber: '+14125550101',
    })
  ).id;
  patient.noContact = (await gv.patient({ programId: program.a, phoneNumber: null, email: null })).id;
  patient.foreign = (await gv.patient({ programId: program.other, phoneNumber: '+14125550102' })).id;
  const make = async (who: keyof typeof staff, programId: number) => {
    const admin = await gv.admin({
      hipaaConsented: true,
      programRoles: [{ programId, role: 'care_coordinator' }],
    });
    staff[who] = { id: admin.id, token: (await signIn(app, admin.email, FACTORY_PASSWORD)).token };
  };
  await make('ann', program.a);
  await make('ben', program.a);
  await make('out', program.other);
});

describe('guest links', () => {
  it('sends a signed link by SMS; the guest verifies it, reads the conversation, replies, and staff see the reply', async () => {
    const id = await conversation('Rosa and family');
    await call(staff.ann.token, 'POST', url(c.post, { id }), { body: 'Hello Rosa, how was last night?' });
    const root = (await call(staff.ann.token, 'POST', url(c.post, { id }), { body: 'Staff only' })).json()
      .data.id;
    await call(staff.ben.token, 'POST', url(c.post, { id }), {
      body: 'internal thread note',
      parent_id: root,
    });
    const { invite: sent, token } = await invite(id);
    expect(sent).toMatchObject({
      channel: 'sms',
      sent_to: '•••• 0101',
      guest_name: 'Rosa Hills',
      revoked_at: null,
    });

    const verified = await app.inject({ method: 'GET', url: url(g.verify, undefined, { token }) });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({
      conversation: id,
      receiver: patient.a,
      sender: staff.ann.id,
      guest_name: 'Rosa Hills',
    });

    const seen = await asGuest(token, 'GET', url(g.conversation, { id }));
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().data).toMatchObject({ name: 'Rosa and family', guest_name: 'Rosa Hills' });
    // Top-level messages only: the staff's thread stays internal; no staff e-mails or ids.
    expect(seen.json().messages.map((m: { body: string }) => m.body)).toEqual([
      'Hello Rosa, how was last night?',
      'Staff only',
    ]);
    expect(JSON.stringify(seen.json())).not.toMatch(/@|email|admin/i);

    const posted = await asGuest(token, 'POST', url(g.post, { id }), { body: 'Slept well, thank you' });
    expect(posted.statusCode, posted.body).toBe(201);
    expect(posted.json().data.sender).toEqual({ name: 'Rosa Hills (guest)', kind: 'guest', you: true });
    const staffView = (await call(staff.ben.token, 'GET', url(c.get, { id }))).json().messages;
    expect(staffView.at(-1)).toMatchObject({ body: 'Slept well, thank you', sender: { kind: 'guest' } });
    expect((await asGuest(token, 'PUT', url(g.read, { id }))).statusCode).toBe(200);
    // A guest sends text and files only.
    expect((await asGuest(token, 'POST', url(g.post, { id }), { body: 'x', urgent: true })).statusCode).toBe(
      422,
    );

    const listed = await call(staff.ben.token, 'GET', url(g.invites, { id }));
    expect(listed.json().data[0]).toMatchObject({ id: sent.id, last_used_at: expect.any(String) });
  });

  it('refuses tampered, expired, revoked and missing tokens, and any other conversation', async () => {
    const id = await conversation('Refusals');
    const other = await conversation('Another');
    const { invite: sent, token } = await invite(id);
    const [payload, signature] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...claims, c: other })).toString('base64url')}.${signature}`;
    for (const bad of [forged, `${payload}.${signature.slice(0, -2)}xx`, 'not-a-token', '']) {
      const res = await asGuest(bad, 'GET', url(g.conversation, { id }));
      expect(res.statusCode, bad).toBe(401);
    }
    expect((await app.inject({ method: 'GET', url: url(g.conversation, { id }) })).statusCode).toBe(401);
    expect(
      (await app.inject({ method: 'GET', url: url(g.verify, undefined, { token: forged }) })).statusCode,
    ).toBe(401);
    // The right token on another conversation: not found.
    expect((await asGuest(token, 'GET', url(g.conversation, { id: other }))).statusCode).toBe(404);
    expect((await asGuest(token, 'POST', url(g.post, { id: other }), { body: 'hi' })).statusCode).toBe(404);
    // A staff token is no guest token.
    expect((await call(staff.ann.token, 'GET', url(g.conversation, { id }))).statusCode).toBe(401);

    const revoked = await call(staff.ben.token, 'DELETE', url(g.revoke, { id, inviteId: sent.id }));
    expect(revoked.json().data.revoked_at).toEqual(expect.any(String));
    expect((await asGuest(token, 'GET', url(g.conversation, { id }))).statusCode).toBe(401);

    const fresh = await invite(id);
    await db.execute(
      sql`UPDATE guest_invites SET expires_at = now() - interval '1 minute' WHERE id = ${fresh.invite.id}`,
    );
    const expired = await asGuest(fresh.token, 'GET', url(g.conversation, { id }));
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe(
      'This link is invalid or has expired. Ask the care team for a new one.',
    );
  });

  it('invites only to conversations one is a member of, patients of the program, with a way to reach them', async () => {
    const id = await conversation('Invites');
    const by = (token: string, programId: number, receiverId: number, query: Record<string, string>) =>
      call(token, 'GET', url(g.invite, { programId, receiverId }, query));
    expect(
      (await by(staff.out.token, program.a, patient.a, { conversation_id: String(id) })).statusCode,
    ).toBe(404);
    expect(
      (await by(staff.ann.token, program.a, patient.foreign, { conversation_id: String(id) })).statusCode,
    ).toBe(404);
    expect(
      (await by(staff.out.token, program.other, patient.foreign, { conversation_id: String(id) })).statusCode,
    ).toBe(404);
    const none = await by(staff.ann.token, program.a, patient.noContact, { conversation_id: String(id) });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.channel).toEqual([
      'The patient has no phone number or e-mail address to send the invitation to.',
    ]);
    expect((await by(staff.ann.token, program.a, patient.a, { conversation_id: 'abc' })).statusCode).toBe(
      422,
    );
    expect(
      (
        await app.inject({
          method: 'GET',
          url: url(
            g.invite,
            { programId: program.a, receiverId: patient.a },
            { conversation_id: String(id) },
          ),
        })
      ).statusCode,
    ).toBe(401);
  });
});
