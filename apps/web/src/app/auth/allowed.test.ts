import { groupsContract, patientsContract, type StaffRole } from '@caredeck/contracts';
import { describe, expect, it } from 'vitest';
import type { ActiveScope } from '../../features/tenancy/scope';
import { makeUser } from '../../test/fixtures';
import { mayCall } from './allowed';

const CARE: StaffRole[] = ['admin', 'physician', 'care_coordinator', 'enterprise_admin'];
const rules = new Map([[`${groupsContract.create.method} ${groupsContract.create.path}`, CARE]]);
const program = (programId: number): ActiveScope =>
  ({ programId, program: null, enterpriseScope: false, enterprise: null }) as unknown as ActiveScope;

describe('mayCall: the roles the server declares for a route (ADR 065)', () => {
  it("refuses a role the route does not admit in the scope's program, admits one it does", () => {
    const pharma = makeUser({ roles: [{ name: 'pharma', program_id: 1, enterprise_id: null }] });
    expect(mayCall(rules, groupsContract.create, pharma, program(1))).toBe(false);
    const coordinator = makeUser({
      roles: [{ name: 'care_coordinator', program_id: 1, enterprise_id: null }],
    });
    expect(mayCall(rules, groupsContract.create, coordinator, program(1))).toBe(true);
    // A role in another program does not count here.
    expect(mayCall(rules, groupsContract.create, coordinator, program(2))).toBe(false);
  });

  it("counts an enterprise grant in each of the enterprise's programs, as the server does", () => {
    const enterpriseAdmin = makeUser({
      roles: [{ name: 'enterprise_admin', program_id: null, enterprise_id: 1 }],
    });
    expect(mayCall(rules, groupsContract.create, enterpriseAdmin, program(2))).toBe(true);
  });

  it('admits any role on a route that requires none', () => {
    const pharma = makeUser({ roles: [{ name: 'pharma', program_id: 1, enterprise_id: null }] });
    expect(mayCall(rules, patientsContract.list, pharma, program(1))).toBe(true);
  });
});
