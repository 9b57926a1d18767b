import { authContract, staffContract as c, routeUrl, STAFF_MESSAGES } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, post, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';
import { temporaryPassword } from './staff.service';

let app: App;
let db: Database;
const program = { a: 0, b: 0, foreign: 0 };
const token = { admin: '', twoPrograms: '', coordinator: '', outsider: '' };

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  const enterprise = await g.enterprise();
  program.a = (await g.program({ enterpriseId: enterprise.id, name: 'Heart Failure Clinic' })).id;
  program.b = (await g.program({ enterpriseId: enterprise.id })).id;
  program.foreign = (await g.program({ enterpriseId: (await g.enterprise()).id })).id;
  const signed = async (roles: { programId: number; role: 'admin' | 'care_coordinator' }[]) => {
    const admin = await g.admin({ hipaaConsented: true, programRoles: roles });
    return (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  };
  token.admin = await signed([{ programId: program.a, role: 'admin' }]);
  token.twoPrograms = await signed([
    { programId: program.a, role: 'admin' },
    { programId: program.b, role: 'admin' },
  ]);
  token.coordinator = await signed([{ programId: program.a, role: 'care_coordinator' }]);
  token.outsider = await signed([{ programId: program.foreign, role: 'admin' }]);
});

const newcomer = (tag: string) => ({
  email: ` Nora.${tag}.${Date.now()}@Example.com `,
  phone_number: '(215) 555-0199',
  given_name: 'Nora',
  family_name: 'Newcomer',
  title: 'RN',
});

function create(as: string, body: unknown, programId = program.a) {
  return post(app, routeUrl(c.create, { programId }), body, bearer(as));
}

async function invitationTo(email: string): Promise<string> {
  const res = await db.execute<{ body_text: string; template: string }>(
    sql`SELECT body_text, template FROM email_outbox WHERE to_address = ${email} ORDER BY id DESC LIMIT 1`,
  );
  expect(res.rows[0]?.template).toBe('staff_invitation');
  return /temporary password (\S+)/.exec(res.rows[0]!.body_text)![1]!;
}

describe('POST programs/{p}/users/admin (01 §7)', () => {
  it('creates the account with its role, e-mails a temporary password, and the first sign-in asks for a new one', async () => {
    const body = newcomer('a');
    const res = await create(token.admin, { ...body, role: 'physician' });
    expect(res.statusCode, res.body).toBe(201);
    const email = body.email.trim().toLowerCase();
    expect(res.json()).toMatchObject({
      message: STAFF_MESSAGES.created,
      data: {
        email,
        given_name: 'Nora',
        family_name: 'Newcomer',
        title: 'RN',
        phone_number: '+12155550199',
        program_id: program.a,
        role: 'physician',
        must_change_password: true,
      },
    });
    const password = await invitationTo(email);
    expect(password).toHaveLength(16);

    const first = await post(app, authContract.signIn.path, { email, password });
    expect(first.json().status).toBe('newPassword');
    const chosen = await post(app, authContract.newPassword.path, {
      challenge_token: first.json().challenge_token,
      password: 'My-own-pass-2026',
      password_confirmation: 'My-own-pass-2026',
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(['signedIn', 'hipaa']).toContain(chosen.json().status);

    const audit = await db.execute(
      sql`SELECT 1 FROM audit_events WHERE action = 'staff.create' AND program_id = ${program.a}`,
    );
    expect(audit.rows.length).toBeGreaterThan(0);
  });

  it('defaults the role to care coordinator', async () => {
    const res = await create(token.admin, newcomer('b'));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.role).toBe('care_coordinator');
  });

  it('answers 422 for a taken address (any case), and for missing or bad fields, creating nothing', async () => {
    const body = newcomer('c');
    expect((await create(token.admin, body)).statusCode).toBe(201);
    const again = await create(token.admin, { ...body, email: body.email.toUpperCase() });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.email).toEqual([STAFF_MESSAGES.emailTaken]);

    const bad = await create(token.admin, {
      email: 'nope',
      given_name: ' ',
      phone_number: '555',
      role: 'owner',
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(
      ['email', 'family_name', 'given_name', 'phone_number', 'role'].sort(),
    );
  });

  it('is for program administrators: 403 for a coordinator, 404 for another enterprise, 401 signed out', async () => {
    expect((await create(token.coordinator, newcomer('d'))).statusCode).toBe(403);
    expect((await create(token.outsider, newcomer('e'))).statusCode).toBe(404);
    expect((await post(app, routeUrl(c.create, { programId: program.a }), newcomer('f'))).statusCode).toBe(
      401,
    );
  });
});

describe('POST users/admin (02 §7)', () => {
  it('creates in the one program the caller administers, or in program_id', async () => {
    const res = await post(app, c.createAnywhere.path, newcomer('g'), bearer(token.admin));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.program_id).toBe(program.a);
    const inB = await post(
      app,
      c.createAnywhere.path,
      { ...newcomer('h'), program_id: program.b },
      bearer(token.twoPrograms),
    );
    expect(inB.statusCode, inB.body).toBe(201);
    expect(inB.json().data.program_id).toBe(program.b);
  });

  it('asks which program when the caller administers several; 404 for a program out of reach, 403 without the role', async () => {
    const res = await post(app, c.createAnywhere.path, newcomer('i'), bearer(token.twoPrograms));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.program_id).toEqual([STAFF_MESSAGES.programRequired]);
    const foreign = await post(
      app,
      c.createAnywhere.path,
      { ...newcomer('j'), program_id: program.foreign },
      bearer(token.admin),
    );
    expect(foreign.statusCode).toBe(404);
    const coordinator = await post(
      app,
      c.createAnywhere.path,
      { ...newcomer('k'), program_id: program.a },
      bearer(token.coordinator),
    );
    expect(coordinator.statusCode).toBe(403);
  });
});

describe('temporary passwords', () => {
  it('always meet the password policy and differ', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const p = temporaryPassword();
      expect(p).toMatch(/[a-z]/);
      expect(p).toMatch(/[A-Z]/);
      expect(p).toMatch(/[0-9]/);
      expect(p).toMatch(/[^A-Za-z0-9]/);
      seen.add(p);
    }
    expect(seen.size).toBe(200);
  });
});
