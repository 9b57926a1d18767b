import { patientsContract, routeUrl } from '@caredeck/contracts';
import type { PatientListFilter } from '../apps/server/src/modules/patients/patients.queries';
import type { Database } from '../apps/server/src/platform/db/client';
import type { Dataset } from './dataset';
import type { Scenario } from './scenarios';

export type Check = { name: string; ok: boolean; detail: string };

type Page = {
  data: { id: number; program_id: number }[];
  total: number;
  current_page: number;
  last_page: number;
};

async function getJson(
  baseUrl: string,
  path: string,
  token: string,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json().catch(() => null) };
}

const ORDER: Record<string, string> = {
  'name:ASC': 'last_name ASC, first_name ASC, id ASC',
  'created_at:DESC': 'created_at DESC, id DESC',
  'dob:ASC': 'dob ASC NULLS LAST, id ASC',
  'status:ASC': 'status ASC, last_name ASC, id ASC',
};

/** The expected page, written independently of the server's query (plain SQL, positional parameters). */
async function expectedPage(
  db: Database,
  { programIds, query: f }: PatientListFilter,
): Promise<{ ids: number[]; total: number }> {
  const order = ORDER[`${f.sort_by}:${f.sort_direction}`];
  if (!order) throw new Error(`no reference ordering for ${f.sort_by} ${f.sort_direction}`);
  const params: unknown[] = [programIds[0]];
  let where = 'program_id = $1';
  const add = (value: unknown, condition: (n: string) => string) => {
    params.push(value);
    where += ` AND ${condition(`$${params.length}`)}`;
  };
  if (f.name) add(`%${f.name}%`, (n) => `(first_name ILIKE ${n} OR last_name ILIKE ${n})`);
  if (f.statuses?.length) add(f.statuses, (n) => `status = ANY(${n}::text[])`);
  if (f.sex?.length) add(f.sex, (n) => `sex = ANY(${n}::text[])`);
  if (f.state?.length) add(f.state, (n) => `state = ANY(${n}::text[])`);
  if (f.assignedAdmin && /^\d+$/.test(f.assignedAdmin))
    add(Number(f.assignedAdmin), (n) => `assigned_admin_id = ${n}`);
  const client = db.$client;
  const page = await client.query<{ id: number }>(
    `SELECT id FROM patients WHERE ${where} ORDER BY ${order} LIMIT ${f.per_page} OFFSET ${(f.page - 1) * f.per_page}`,
    params,
  );
  const count = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM patients WHERE ${where}`,
    params,
  );
  return { ids: page.rows.map((r) => Number(r.id)), total: count.rows[0]?.n ?? -1 };
}

async function checkList(db: Database, baseUrl: string, token: string, s: Scenario): Promise<Check> {
  if (!s.filter) throw new Error(`${s.id} is not a list`);
  const f = s.filter!;
  const { status, body } = await getJson(baseUrl, s.path, token);
  if (status !== 200) return { name: s.id, ok: false, detail: `HTTP ${status}: ${JSON.stringify(body)}` };
  const page = body as Page;
  const want = await expectedPage(db, f);
  const got = page.data.map((r) => r.id);
  const foreign = page.data.filter((r) => r.program_id !== f.programIds[0]).length;
  const problems: string[] = [];
  if (page.total !== want.total) problems.push(`total ${page.total}, expected ${want.total}`);
  if (JSON.stringify(got) !== JSON.stringify(want.ids)) {
    problems.push(
      `ids [${got.slice(0, 5).join(',')}…] differ from expected [${want.ids.slice(0, 5).join(',')}…]`,
    );
  }
  if (foreign > 0) problems.push(`${foreign} rows of another program`);
  return {
    name: s.id,
    ok: problems.length === 0,
    detail: problems.length
      ? problems.join('; ')
      : `${got.length} rows, total ${page.total}, order and ids as expected`,
  };
}

/** Answers checked once before the load: a fast wrong answer is not a result. */
export async function checkAnswers(
  db: Database,
  servers: { product: string; baseline: string },
  token: string,
  d: Dataset,
  scenarios: Scenario[],
  adminEmail: string,
): Promise<Check[]> {
  const checks: Check[] = [];
  for (const s of scenarios) {
    const baseUrl = s.server === 'baseline' ? servers.baseline : servers.product;
    if (s.filter) {
      checks.push(await checkList(db, baseUrl, token, s));
    } else if (s.sessions === 'one') {
      const { status, body } = await getJson(baseUrl, s.path, token);
      const email = (body as { email?: string } | null)?.email;
      checks.push({
        name: s.id,
        ok: status === 200 && email === adminEmail,
        detail: `HTTP ${status}, email ${email === adminEmail ? 'matches' : `is ${String(email)}`}`,
      });
    }
  }
  const baseUrl = servers.product;
  const small = await getJson(
    baseUrl,
    routeUrl(patientsContract.list, { programId: d.smallProgramId }, { per_page: 1 }),
    token,
  );
  const smallTotal = (small.body as Page | null)?.total;
  checks.push({
    name: 'tenant-total',
    ok: small.status === 200 && smallTotal === d.smallCount,
    detail: `program ${d.smallProgramId}: HTTP ${small.status}, total ${smallTotal}, expected ${d.smallCount}`,
  });
  const other = await getJson(baseUrl, routeUrl(patientsContract.list, { programId: 999999 }), token);
  checks.push({
    name: 'unknown-program',
    ok: other.status === 404,
    detail: `HTTP ${other.status}, expected 404`,
  });
  return checks;
}
