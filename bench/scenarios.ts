import { patientListQuery, patientsContract, routeUrl, userContract } from '@caredeck/contracts';
import type { PatientListFilter } from '../apps/server/src/modules/patients/patients.queries';
import type { Dataset } from './dataset';

export const PER_PAGE = 20;
export const SEARCH_TEXT = 'smi';
/** Connections of the product-versus-baseline pairs (issue 6 §3 measures them at 50). */
export const BASELINE_CONNECTIONS = 50;

export type Scenario = {
  id: string;
  title: string;
  path: string;
  /** The list query the route runs (for EXPLAIN and the independent answer check), if it is a list. */
  filter?: PatientListFilter;
  /** 'one': every connection shares one session (one user); 'many': one session per connection. */
  sessions: 'one' | 'many';
  /** Which server answers: the product (default) or the bare Fastify + pg baseline (bench/baseline.ts). */
  server?: 'product' | 'baseline';
  /** Connections for this scenario, when not the run's setting. */
  connections?: number;
};

type ListQuery = Record<string, string | number>;

function listScenario(id: string, title: string, programId: number, q: ListQuery): Scenario {
  const query = { per_page: PER_PAGE, ...q };
  const parsed = patientListQuery.parse(
    Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  );
  return {
    id,
    title,
    path: routeUrl(patientsContract.list, { programId }, query),
    filter: { programIds: [programId], query: parsed },
    sessions: 'one',
  };
}

/** The middle page as the console reaches it with Next: sought from the previous page's last row (`after`). */
export function keysetScenario(d: Dataset, anchorId: number): Scenario {
  const middle = Math.max(1, Math.floor(Math.ceil(d.bigCount / PER_PAGE) / 2));
  return listScenario(
    'list-middle-keyset',
    `patients, page ${middle} (middle) by after=<id>, sort name ASC`,
    d.bigProgramId,
    {
      page: middle,
      after: anchorId,
      sort_by: 'name',
      sort_direction: 'ASC',
    },
  );
}

/** The page before the middle one, whose last row anchors the keyset scenario. */
export function beforeMiddlePath(d: Dataset): string {
  const middle = Math.max(1, Math.floor(Math.ceil(d.bigCount / PER_PAGE) / 2));
  return routeUrl(
    patientsContract.list,
    { programId: d.bigProgramId },
    {
      page: Math.max(1, middle - 1),
      per_page: PER_PAGE,
      sort_by: 'name',
      sort_direction: 'ASC',
    },
  );
}

/** The measured calls: what the patients page of the console asks for, on the large program. */
export function benchScenarios(d: Dataset): Scenario[] {
  const lastPage = Math.max(1, Math.ceil(d.bigCount / PER_PAGE));
  const middle = Math.max(1, Math.floor(lastPage / 2));
  const p = d.bigProgramId;
  const byName = { sort_by: 'name', sort_direction: 'ASC' };
  const list1 = listScenario('list-name', 'patients, page 1, sort name ASC', p, { page: 1, ...byName });
  const user = {
    id: 'user',
    title: 'GET /api/v1/user (one session)',
    path: userContract.me.path,
    sessions: 'one' as const,
  };
  const vs = (s: Scenario, id: string, title: string, server: 'product' | 'baseline'): Scenario => ({
    ...s,
    id,
    title: `${title}, ${BASELINE_CONNECTIONS} connections, ${server === 'baseline' ? 'bare baseline' : 'product'}`,
    server,
    connections: BASELINE_CONNECTIONS,
  });
  return [
    list1,
    listScenario('list-middle', `patients, page ${middle} (middle), sort name ASC`, p, {
      page: middle,
      ...byName,
    }),
    listScenario('list-deep', `patients, page ${lastPage} (last), sort name ASC`, p, {
      page: lastPage,
      ...byName,
    }),
    listScenario('deep-dob', `patients, page ${lastPage} (last), sort dob ASC`, p, {
      page: lastPage,
      sort_by: 'dob',
      sort_direction: 'ASC',
    }),
    listScenario('search', `patients, name='${SEARCH_TEXT}', page 1, sort name`, p, {
      page: 1,
      name: SEARCH_TEXT,
      ...byName,
    }),
    listScenario('list-created', 'patients, page 1, sort created_at DESC', p, {
      page: 1,
      sort_by: 'created_at',
      sort_direction: 'DESC',
    }),
    listScenario('filter-status', 'patients, statuses=pending, page 1, sort name', p, {
      page: 1,
      statuses: 'pending',
      ...byName,
    }),
    listScenario('filter-assignee', 'patients, assignedAdmin=<one staff member>, page 1, sort name', p, {
      page: 1,
      assignedAdmin: d.assigneeId,
      ...byName,
    }),
    listScenario(
      'filter-combined',
      'patients, sex=female & statuses=active & state=PA, page 1, sort status',
      p,
      {
        page: 1,
        sex: 'female',
        statuses: 'active',
        state: 'PA',
        sort_by: 'status',
        sort_direction: 'ASC',
      },
    ),
    user,
    {
      id: 'user-sessions',
      title: 'GET /api/v1/user (one session per connection)',
      path: userContract.me.path,
      sessions: 'many',
    },
    // Product and bare baseline, alternating, at 50 connections (issue 6 §3).
    vs(list1, 'list-50', 'patients page 1', 'product'),
    vs(list1, 'list-50-bare', 'patients page 1', 'baseline'),
    vs(user, 'user-50', 'GET /api/v1/user', 'product'),
    vs(user, 'user-50-bare', 'GET /api/v1/user', 'baseline'),
  ];
}
