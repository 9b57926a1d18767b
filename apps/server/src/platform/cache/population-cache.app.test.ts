import { billingContract, kpiContract, logsContract, routeUrl } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { FACTORY_PASSWORD } from '../../modules/identity/identity.factories';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import type { Database } from '../db/client';
import type { App } from '../http/types';

// Programs of at least 3 patients count as large here (5,000 as shipped).
let app: App;
let db: Database;
let token = '';
let adminId = 0;
const program = { large: 0, small: 0 };
const get = (url: string) => app.inject({ method: 'GET', url, headers: bearer(token) });
const kpi = (programId: number) =>
  get(routeUrl(kpiContract.program, { programId, start: '2026-06-01', end: '2026-06-30' }));
const today = new Date().toISOString().slice(0, 10);
const summary = (programId: number) =>
  get(routeUrl(logsContract.adminLogs, { programId: String(programId) }, { summary: '1', end: today }));

beforeAll(async () => {
  ({ app, db } = await testApp({ POPULATION_CACHE_MIN_PATIENTS: 3 }));
  const g = given(db);
  program.large = (await g.program()).id;
  program.small = (await g.program()).id;
  for (let i = 0; i < 3; i++) await g.patient({ programId: program.large });
  await g.patient({ programId: program.small });
  const admin = await g.admin({
    hipaaConsented: true,
    programRoles: [
      { programId: program.large, role: 'admin' },
      { programId: program.small, role: 'admin' },
    ],
  });
  adminId = admin.id;
  token = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
});

describe('population figures of large programs (ADR 077)', () => {
  it('serves a large program the KPI computed moments ago, and audits every request', async () => {
    const first = (await kpi(program.large)).json();
    expect(first.patients.enrolled).toBe(3);
    await given(db).patient({ programId: program.large });
    const second = await kpi(program.large);
    expect(second.statusCode).toBe(200);
    expect(second.json().patients.enrolled).toBe(3);
    expect(second.json().generated_at).toBe(first.generated_at);
    const audited = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM audit_events WHERE action = 'kpi.view' AND program_id = ${program.large}`,
    );
    expect(audited.rows[0]!.n).toBe(2);
  });

  it('computes a small program every time, so its staff see what they just did', async () => {
    expect((await kpi(program.small)).json().patients.enrolled).toBe(1);
    await given(db).patient({ programId: program.small });
    expect((await kpi(program.small)).json().patients.enrolled).toBe(2);
  });

  it('serves the staff summary the same way: a large program from the result, a small one live', async () => {
    const actionsOf = async (programId: number) => {
      const res = await summary(programId);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.reduce((n: number, row: { actions: number }) => n + row.actions, 0);
    };
    const large = await actionsOf(program.large);
    const small = await actionsOf(program.small);
    await kpi(program.large);
    await kpi(program.small);
    expect(await actionsOf(program.large)).toBe(large);
    expect(await actionsOf(program.small)).toBe(small + 1);
    // One staff member's activity likewise.
    const memberActions = async (programId: number) => {
      const res = await get(
        routeUrl(
          logsContract.adminLog,
          { programId: String(programId), id: String(adminId) },
          { end: today },
        ),
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.actions;
    };
    const largeMember = await memberActions(program.large);
    const smallMember = await memberActions(program.small);
    await kpi(program.large);
    await kpi(program.small);
    expect(await memberActions(program.large)).toBe(largeMember);
    expect(await memberActions(program.small)).toBe(smallMember + 1);
  });

  it('serves the billing screen of the month the same way', async () => {
    const billings = async (programId: number) => {
      const res = await get(routeUrl(billingContract.programBillings, { programId }));
      expect(res.statusCode, res.body).toBe(200);
      return res.json().summary.patients;
    };
    const large = await billings(program.large);
    const small = await billings(program.small);
    await given(db).patient({ programId: program.large });
    await given(db).patient({ programId: program.small });
    expect(await billings(program.large)).toBe(large);
    expect(await billings(program.small)).toBe(small + 1);
  });
});
