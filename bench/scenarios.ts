import { patientsContract, routeUrl, userContract } from '@caredeck/contracts';
import type { PatientListFilter } from '../apps/server/src/modules/patients/patients.queries';
import type { Dataset } from './dataset';

export const PER_PAGE = 20;
export const SEARCH_TEXT = 'smi';

export type Scenario = {
  id: string;
  title: string;
  path: string;
  /** The list query the route runs (for EXPLAIN and the independent answer check), if it is a list. */
  filter?: PatientListFilter;
  /** 'one': every connection shares one session (one user); 'many': one session per connection. */
  sessions: 'one' | 'many';
};

function listScenario(
  id: string,
  title: string,
  programId: number,
  q: { page: number; name?: string; sortBy: 'name' | 'created_at'; sortDirection: 'ASC' | 'DESC' },
): Scenario {
  const query = {
    page: q.page,
    per_page: PER_PAGE,
    sort_by: q.sortBy,
    sort_direction: q.sortDirection,
    ...(q.name ? { name: q.name } : {}),
  };
  return {
    id,
    title,
    path: routeUrl(patientsContract.list, { programId }, query),
    filter: { programIds: [programId], query },
    sessions: 'one',
  };
}

/** The measured calls: what the patients page of the console asks for, on the large program. */
export function benchScenarios(d: Dataset): Scenario[] {
  const lastPage = Math.max(1, Math.ceil(d.bigCount / PER_PAGE));
  const p = d.bigProgramId;
  return [
    listScenario('list-name', `patients, page 1, sort name ASC`, p, {
      page: 1,
      sortBy: 'name',
      sortDirection: 'ASC',
    }),
    listScenario('list-deep', `patients, page ${lastPage} (last), sort name ASC`, p, {
      page: lastPage,
      sortBy: 'name',
      sortDirection: 'ASC',
    }),
    listScenario('search', `patients, name='${SEARCH_TEXT}', page 1, sort name`, p, {
      page: 1,
      name: SEARCH_TEXT,
      sortBy: 'name',
      sortDirection: 'ASC',
    }),
    listScenario('list-created', 'patients, page 1, sort created_at DESC', p, {
      page: 1,
      sortBy: 'created_at',
      sortDirection: 'DESC',
    }),
    { id: 'user', title: 'GET /api/v1/user (one session)', path: userContract.me.path, sessions: 'one' },
    {
      id: 'user-sessions',
      title: 'GET /api/v1/user (one session per connection)',
      path: userContract.me.path,
      sessions: 'many',
    },
  ];
}
