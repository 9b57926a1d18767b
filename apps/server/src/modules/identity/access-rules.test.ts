import {
  accessRuleKey,
  accessRulesContract,
  contentContract,
  groupsContract,
  patientRecordContract,
} from '@caredeck/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from './identity.factories';

let app: App;
let token = '';

beforeAll(async () => {
  let db: Parameters<typeof given>[0];
  ({ app, db } = await testApp());
  const g = given(db);
  const program = await g.program({ enterpriseId: (await g.enterprise()).id });
  const admin = await g.admin({
    hipaaConsented: true,
    programRoles: [{ programId: program.id, role: 'pharma' }],
  });
  token = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
});

describe('GET access-rules (ADR 065)', () => {
  it("answers the roles each route requires, from the routes' declared rules", async () => {
    const res = await app.inject({
      method: 'GET',
      url: accessRulesContract.list.path,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    const rules = new Map(
      (res.json() as { data: { method: string; path: string; roles: string[] }[] }).data.map(
        (e) => [`${e.method} ${e.path}` as string, e.roles] as const,
      ),
    );
    // Each the same table docs/security.md is generated from: the declared rule's roles, none for pharma.
    for (const route of [
      groupsContract.create,
      patientRecordContract.create,
      contentContract.createCategory,
    ]) {
      const roles = rules.get(accessRuleKey(route) as string);
      expect(roles, accessRuleKey(route)).toEqual(
        expect.arrayContaining(['admin', 'physician', 'care_coordinator', 'enterprise_admin']),
      );
      expect(roles).not.toContain('pharma');
      const asked = app.accessTable.find((r) => r.method === route.method && r.url === route.path)?.access;
      expect(
        asked && 'roles' in asked ? asked.roles : asked?.kind === 'staff' ? asked.programRoles : null,
      ).toEqual(roles);
    }
    // A route any role may call is not listed.
    expect(rules.has(accessRuleKey(groupsContract.list) as string)).toBe(false);
  });

  it('is for signed-in staff only', async () => {
    const res = await app.inject({ method: 'GET', url: accessRulesContract.list.path });
    expect(res.statusCode).toBe(401);
  });
});
