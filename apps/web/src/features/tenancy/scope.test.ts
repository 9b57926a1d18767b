import { describe, expect, it } from 'vitest';
import { hasAnyRole, hasRole } from '../../app/auth/roles';
import { makeUser } from '../../test/fixtures';
import '../../test/render';
import {
  ensureScope,
  enterprisesWithScope,
  programFilterOf,
  resolveScope,
  scopeStore,
  selectEnterprise,
  selectProgram,
} from './scope';

const user = makeUser({
  programs: [
    { id: 3, slug: 'cardio', name: 'Cardio', type: 'monitoring', enterprise_id: 1 },
    { id: 4, slug: 'caredeck', name: 'CareDeck', type: 'monitoring', enterprise_id: 1 },
    { id: 9, slug: 'pharma', name: 'Pharma', type: 'pharma', enterprise_id: 2 },
  ],
  enterprises: [
    { id: 1, name: 'Northwind', slug: 'northwind' },
    { id: 2, name: 'Contoso', slug: 'contoso' },
  ],
});

describe('the active program (01 §4)', () => {
  it('prefers the default slug, and is remembered for the same user across sign-out', () => {
    expect(resolveScope(user)).toMatchObject({ programId: 4, enterpriseScope: false });
    selectProgram(user, 9);
    // Sign-out clears the active keys but keeps the last ones.
    for (const key of [
      'AppActiveProgramId',
      'AppActiveProgram',
      'AppActiveEnterprise',
      'AppEnterpriseState',
    ]) {
      localStorage.removeItem(key);
    }
    scopeStore.set(null);
    expect(ensureScope(user)).toMatchObject({ programId: 9, enterprise: { id: 2 } });
  });

  it('does not give one user another user’s last program', () => {
    selectProgram(user, 9);
    scopeStore.set(null);
    const other = { ...user, id: 8 };
    expect(ensureScope(other).programId).toBe(4);
    expect(localStorage.getItem('AppLastUserId')).toBe('8');
  });

  it('falls back to program 1 without programs, and treats program 1 as no filter on enterprise scope', () => {
    expect(resolveScope({ ...user, programs: [] }).programId).toBe(1);
    selectEnterprise(user, 1);
    const scope = scopeStore.get();
    expect(scope).toMatchObject({ enterpriseScope: true, enterprise: { id: 1 }, programId: 4 });
    expect(scope && programFilterOf(scope)).toBe(1);
    expect(localStorage.getItem('AppEnterpriseState')).toBe('enterprise');
    selectEnterprise(user, null);
    expect(scopeStore.get()).toMatchObject({ enterpriseScope: false, programId: 4 });
  });
});

describe('one clear scope (issue 7 §1)', () => {
  it('offers enterprise scope only where the user sees more than one program', () => {
    expect(enterprisesWithScope(user).map((e) => e.id)).toEqual([1]);
    selectProgram(user, 9);
    // Contoso shows this user one program: "all programs of Contoso" would be the same list.
    selectEnterprise(user, 2);
    expect(scopeStore.get()).toMatchObject({ enterpriseScope: false, programId: 9 });
  });

  it('starts enterprise admins on their enterprise, until they choose a program', () => {
    const admin = {
      ...user,
      id: 21,
      roles: [{ name: 'enterprise_admin' as const, program_id: null, enterprise_id: 1 }],
    };
    expect(resolveScope(admin)).toMatchObject({ enterpriseScope: true, enterprise: { id: 1 } });
    selectProgram(admin, 3);
    scopeStore.set(null);
    expect(ensureScope(admin)).toMatchObject({ enterpriseScope: false, programId: 3 });
  });

  it('drops a remembered enterprise scope that no longer shows more than one program', () => {
    selectEnterprise(user, 1);
    scopeStore.set(null);
    const fewer = { ...user, programs: user.programs.filter((p) => p.id !== 3) };
    expect(ensureScope(fewer)).toMatchObject({ enterpriseScope: false, programId: 4 });
  });
});

describe('role checks (01 §6)', () => {
  it('holds a role by a grant for the active program, or as enterprise_admin of its enterprise', () => {
    const scope = resolveScope(user);
    expect(
      hasRole(
        { ...user, roles: [{ name: 'physician', program_id: 4, enterprise_id: 1 }] },
        'physician',
        scope,
      ),
    ).toBe(true);
    expect(
      hasRole(
        { ...user, roles: [{ name: 'physician', program_id: 3, enterprise_id: 1 }] },
        'physician',
        scope,
      ),
    ).toBe(false);
    expect(
      hasRole(
        { ...user, roles: [{ name: 'enterprise_admin', program_id: null, enterprise_id: 1 }] },
        'pharma',
        scope,
      ),
    ).toBe(true);
    expect(
      hasRole(
        { ...user, roles: [{ name: 'enterprise_admin', program_id: null, enterprise_id: 2 }] },
        'pharma',
        scope,
      ),
    ).toBe(false);
    expect(
      hasAnyRole(
        { ...user, roles: [{ name: 'admin', program_id: 4, enterprise_id: 1 }] },
        ['physician', 'admin'],
        scope,
      ),
    ).toBe(true);
  });
});
