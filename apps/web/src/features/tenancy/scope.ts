import {
  type ActiveUser,
  DEFAULT_PROGRAM_ID,
  DEFAULT_PROGRAM_SLUG,
  type EnterpriseSummary,
  type ProgramSummary,
} from '@caredeck/contracts';
import { chooseActiveProgram } from '@caredeck/domain';
import {
  readItem,
  readJson,
  readNumber,
  STORAGE_KEYS,
  writeItem,
  writeJson,
} from '../../shared/browser-storage';
import { createStore, useStore } from '../../shared/ui/createStore';

/**
 * Where the user works (01 §4, §6): one program, or an enterprise (all its programs). `programId` is always a
 * real program of the user (page-time and program calls use it); on enterprise scope the program filter is
 * DEFAULT_PROGRAM_ID, meaning none.
 */
export interface ActiveScope {
  userId: number;
  programId: number;
  program: ProgramSummary | null;
  enterprise: EnterpriseSummary | null;
  enterpriseScope: boolean;
}

const ENTERPRISE_STATE_ON = 'enterprise';
const ENTERPRISE_STATE_OFF = 'program';

export const scopeStore = createStore<ActiveScope | null>(null);

export function useActiveScope(): ActiveScope | null {
  return useStore(scopeStore);
}

/** The program filter of a call: the active program, or none (id 1) on enterprise scope. */
export function programFilterOf(scope: ActiveScope): number {
  return scope.enterpriseScope ? DEFAULT_PROGRAM_ID : scope.programId;
}

/** Stable key of the scope, for query keys. */
export function scopeKey(scope: ActiveScope | null): string {
  if (!scope) return 'none';
  return scope.enterpriseScope && scope.enterprise ? `e${scope.enterprise.id}` : `p${scope.programId}`;
}

function isEnterprise(value: unknown): value is EnterpriseSummary {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'number';
}

/**
 * Enterprises whose scope shows more than one program to this user: only there does "all programs of …"
 * show something a single program does not (a coordinator of one program of an enterprise has no such choice).
 */
export function enterprisesWithScope(user: ActiveUser): EnterpriseSummary[] {
  return user.enterprises.filter(
    (enterprise) => user.programs.filter((program) => program.enterprise_id === enterprise.id).length > 1,
  );
}

/** Enterprise admins work across their enterprise: they start there until they choose otherwise. */
function administeredEnterprise(user: ActiveUser): EnterpriseSummary | null {
  const grant = user.roles.find((role) => role.name === 'enterprise_admin' && role.enterprise_id !== null);
  return enterprisesWithScope(user).find((enterprise) => enterprise.id === grant?.enterprise_id) ?? null;
}

function persist(scope: ActiveScope): void {
  const state = scope.enterpriseScope ? ENTERPRISE_STATE_ON : ENTERPRISE_STATE_OFF;
  writeItem(STORAGE_KEYS.activeProgramId, String(scope.programId));
  writeJson(STORAGE_KEYS.activeProgram, scope.program);
  writeJson(STORAGE_KEYS.activeEnterprise, scope.enterprise);
  writeItem(STORAGE_KEYS.enterpriseState, state);
  // Kept across sign-out so the same user gets this context back on their next sign-in (01 §9).
  writeItem(STORAGE_KEYS.lastActiveProgramId, String(scope.programId));
  writeJson(STORAGE_KEYS.lastActiveEnterprise, scope.enterprise);
  writeItem(STORAGE_KEYS.lastEnterpriseState, state);
  writeItem(STORAGE_KEYS.lastUserId, String(scope.userId));
}

function set(scope: ActiveScope): ActiveScope {
  persist(scope);
  scopeStore.set(scope);
  return scope;
}

/** The scope for this user from what the browser remembers, if it remembers this user, else the defaults. */
export function resolveScope(user: ActiveUser): ActiveScope {
  const sameUser = readNumber(STORAGE_KEYS.lastUserId) === user.id;
  const storedProgramId = sameUser
    ? (readNumber(STORAGE_KEYS.activeProgramId) ?? readNumber(STORAGE_KEYS.lastActiveProgramId))
    : null;
  const programId = chooseActiveProgram(user.programs, storedProgramId, DEFAULT_PROGRAM_SLUG);
  const program = user.programs.find((candidate) => candidate.id === programId) ?? null;

  const storedEnterprise = sameUser
    ? (readJson(STORAGE_KEYS.activeEnterprise) ?? readJson(STORAGE_KEYS.lastActiveEnterprise))
    : null;
  const storedState = sameUser
    ? (readItem(STORAGE_KEYS.enterpriseState) ?? readItem(STORAGE_KEYS.lastEnterpriseState))
    : null;
  const remembered = isEnterprise(storedEnterprise)
    ? (enterprisesWithScope(user).find((enterprise) => enterprise.id === storedEnterprise.id) ?? null)
    : null;
  const chosen = storedState === ENTERPRISE_STATE_ON ? remembered : null;
  // Nothing remembered for this user: enterprise admins start on their enterprise, everyone else on a program.
  const startEnterprise = storedState === null ? administeredEnterprise(user) : null;
  const enterpriseScope = chosen !== null || startEnterprise !== null;
  const startingEnterprise = chosen ?? startEnterprise;
  const programEnterprise =
    user.enterprises.find((enterprise) => enterprise.id === program?.enterprise_id) ?? null;
  return {
    userId: user.id,
    programId,
    program,
    enterprise: enterpriseScope ? startingEnterprise : programEnterprise,
    enterpriseScope,
  };
}

/** Makes sure the scope belongs to this user and still fits their programs (roles can change live). */
export function ensureScope(user: ActiveUser): ActiveScope {
  const current = scopeStore.get();
  const stillValid =
    current !== null &&
    current.userId === user.id &&
    (user.programs.length === 0 || user.programs.some((program) => program.id === current.programId)) &&
    (!current.enterpriseScope ||
      enterprisesWithScope(user).some((enterprise) => enterprise.id === current.enterprise?.id));
  return stillValid ? current : set(resolveScope(user));
}

export function selectProgram(user: ActiveUser, programId: number): void {
  const program = user.programs.find((candidate) => candidate.id === programId);
  if (!program) return;
  set({
    userId: user.id,
    programId,
    program,
    enterprise: user.enterprises.find((enterprise) => enterprise.id === program.enterprise_id) ?? null,
    enterpriseScope: false,
  });
}

export function selectEnterprise(user: ActiveUser, enterpriseId: number | null): void {
  const current = ensureScope(user);
  const enterprise = enterprisesWithScope(user).find((candidate) => candidate.id === enterpriseId) ?? null;
  if (!enterprise) {
    selectProgram(user, current.programId);
    return;
  }
  set({ ...current, enterprise, enterpriseScope: true });
}
