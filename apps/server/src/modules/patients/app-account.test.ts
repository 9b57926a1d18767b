import {
  patientRecordContract as c,
  PASSWORDS_DO_NOT_MATCH,
  PATIENT_MESSAGES,
  routeUrl,
} from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../platform/auth/passwords';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
let db: Database;
const token = { carer: '', pharma: '', outsider: '' };
const patient = { withEmail: 0, noEmail: 0 };

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  const programId = (await g.program({ enterpriseId: (await g.enterprise()).id })).id;
  const foreign = (await g.program({ enterpriseId: (await g.enterprise()).id })).id;
  const signed = async (programIdOf: number, role: 'care_coordinator' | 'pharma') => {
    const admin = await g.admin({ hipaaConsented: true, programRoles: [{ programId: programIdOf, role }] });
    return (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  };
  token.carer = await signed(programId, 'care_coordinator');
  token.pharma = await signed(programId, 'pharma');
  token.outsider = await signed(foreign, 'care_coordinator');
  patient.withEmail = (await g.patient({ programId, firstName: 'Petra', email: 'petra.app@example.com' })).id;
  patient.noEmail = (await g.patient({ programId })).id;
});

const put = (as: string, url: string, payload?: object) =>
  app.inject({ method: 'PUT', url, payload, headers: bearer(as) });
const passwordUrl = (id: number) => routeUrl(c.appPassword, { id });

describe('PUT users/{id}/password and verificationcode (02 §4, §7)', () => {
  it("type '2' sets the given password (hashed, never stored in clear)", async () => {
    const res = await put(token.carer, passwordUrl(patient.withEmail), {
      type: '2',
      password: 'Petra-app-2026',
      password_confirmation: 'Petra-app-2026',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: PATIENT_MESSAGES.passwordSet, action: 'password', sent_to: null });
    const row = await db.execute<{ password_hash: string }>(
      sql`SELECT password_hash FROM patient_app_accounts WHERE patient_id = ${patient.withEmail}`,
    );
    expect(row.rows[0]!.password_hash).not.toContain('Petra-app-2026');
    expect(await verifyPassword(row.rows[0]!.password_hash, 'Petra-app-2026')).toBe(true);
  });

  it("type '2' checks the password policy and the confirmation", async () => {
    const weak = await put(token.carer, passwordUrl(patient.withEmail), { type: 2, password: 'short' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors.password).toBeDefined();
    const mismatch = await put(token.carer, passwordUrl(patient.withEmail), {
      type: '2',
      password: 'Petra-app-2026',
      password_confirmation: 'Petra-app-2027',
    });
    expect(mismatch.json().errors.password_confirmation).toEqual([PASSWORDS_DO_NOT_MATCH]);
  });

  it('any other type e-mails a fresh code, at most once a minute (429), and verificationcode does the same', async () => {
    const res = await put(token.carer, passwordUrl(patient.withEmail), { type: '1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: PATIENT_MESSAGES.codeSent,
      action: 'code',
      sent_to: 'p•••@example.com',
    });
    const mail = await db.execute<{ body_text: string }>(
      sql`SELECT body_text FROM email_outbox WHERE to_address = 'petra.app@example.com' ORDER BY id DESC LIMIT 1`,
    );
    expect(mail.rows[0]!.body_text).toMatch(/verification code is \d{6}/);
    const again = await put(token.carer, routeUrl(c.verificationCode, { id: patient.withEmail }));
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    await db.execute(
      sql`UPDATE patient_app_accounts SET code_sent_at = now() - interval '2 minutes' WHERE patient_id = ${patient.withEmail}`,
    );
    expect((await put(token.carer, routeUrl(c.verificationCode, { id: patient.withEmail }))).statusCode).toBe(
      200,
    );
  });

  it('answers 422 when the patient has no e-mail address to send a code to', async () => {
    const res = await put(token.carer, routeUrl(c.verificationCode, { id: patient.noEmail }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email).toEqual([PATIENT_MESSAGES.noEmail]);
  });

  it('is for care roles of the patient’s program: 403 for pharma, 404 for another program, 401 signed out', async () => {
    expect((await put(token.pharma, passwordUrl(patient.withEmail), { type: '1' })).statusCode).toBe(403);
    expect((await put(token.outsider, passwordUrl(patient.withEmail), { type: '1' })).statusCode).toBe(404);
    const anonymous = await app.inject({ method: 'PUT', url: passwordUrl(patient.withEmail), payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });
});
