import { PATIENT_SORT_FIELDS, patientsContract, routeUrl } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, DEMO_PASSWORD, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';

let app: App;
let db: Database;
let token: string;
let programIds: number[];
const allIds: number[] = [];

/** The order the list promises, written independently of the server's query. */
const REFERENCE: Record<(typeof PATIENT_SORT_FIELDS)[number], string[]> = {
  name: ['last_name', 'first_name'],
  first_name: ['first_name', 'last_name'],
  last_name: ['last_name', 'first_name'],
  dob: ['dob'],
  status: ['status', 'last_name'],
  created_at: ['created_at'],
  id: [],
};

beforeAll(async () => {
  ({ app, db } = await testApp());
  const { admin, enterprise: createEnterprise, program, patients } = given(db);
  const enterprise = await createEnterprise({ name: 'Paging Health' });
  const programs = await Promise.all(
    ['a', 'b'].map((k) => program({ name: `Paging ${k}`, enterpriseId: enterprise.id })),
  );
  programIds = programs.map((p) => p.id);
  await admin({
    email: 'pager@caredeck.demo',
    password: DEMO_PASSWORD,
    hipaaConsented: true,
    programRoles: programIds.map((programId) => ({ programId, role: 'admin' as const })),
  });
  token = (await signIn(app, 'pager@caredeck.demo')).token;
  // Ties on purpose: equal names, equal or missing birth dates, equal statuses, equal creation times.
  const created = new Date('2026-01-01T00:00:00Z');
  for (const [i, programId] of programIds.entries()) {
    allIds.push(
      ...(await patients(
        Array.from({ length: 23 }, (_, n) => ({
          programId,
          firstName: ['Ann', 'Bo', 'Cy'][n % 3]!,
          lastName: ['Lee', 'Lee', 'Moss', 'Ng'][n % 4]!,
          dob: n % 5 === 0 ? null : `19${50 + (n % 7)}-0${1 + (n % 3)}-1${n % 2}`,
          status: (['active', 'inactive', 'pending'] as const)[(n + i) % 3],
          createdAt: new Date(created.getTime() + (n % 4) * 1000),
        })),
      )),
    );
  }
});

async function everyPage(
  path: string,
  query: Record<string, string | number>,
): Promise<{ ids: number[]; totals: number[] }> {
  const ids: number[] = [];
  const totals: number[] = [];
  for (let page = 1; page <= 20; page++) {
    const res = await app.inject({
      method: 'GET',
      url: `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams({ ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])), page: String(page) })}`,
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: { id: number }[]; last_page: number; total: number };
    ids.push(...body.data.map((r) => r.id));
    totals.push(body.total);
    if (page >= body.last_page) break;
  }
  return { ids, totals };
}

/** The list of the first program, or of the enterprise both programs belong to. */
async function listPath(scope: 'program' | 'enterprise'): Promise<string> {
  if (scope === 'program') return routeUrl(patientsContract.list, { programId: programIds[0]! });
  const res = await db.execute<{ id: number }>(
    sql`SELECT enterprise_id AS id FROM programs WHERE id = ${programIds[0]!}`,
  );
  return routeUrl(patientsContract.enterpriseList, { enterpriseId: res.rows[0]!.id });
}

describe('paging in every sort (issue 6 §4)', () => {
  for (const sort_by of PATIENT_SORT_FIELDS) {
    for (const sort_direction of ['ASC', 'DESC'] as const) {
      it(`${sort_by} ${sort_direction}: every patient once, in the promised order, on one program and on the enterprise`, async () => {
        const nulls = 'NULLS LAST';
        const order = [...REFERENCE[sort_by], 'id']
          .map((c) => `${c} ${sort_direction}${c === 'dob' ? ` ${nulls}` : ''}`)
          .join(', ');
        for (const scope of ['program', 'enterprise'] as const) {
          const ids = scope === 'program' ? [programIds[0]!] : programIds;
          const expected = (
            await db.execute<{ id: number }>(
              sql.raw(`SELECT id FROM patients WHERE program_id IN (${ids.join(',')}) ORDER BY ${order}`),
            )
          ).rows.map((r) => r.id);
          const path = await listPath(scope);
          const got = await everyPage(path, { per_page: 7, sort_by, sort_direction });
          expect(got.ids, scope).toEqual(expected);
          expect(new Set(got.totals), scope).toEqual(new Set([expected.length]));
        }
      });
    }
  }
});

describe('paging a filtered list', () => {
  it('reads every page once, the second half from the other end of the index, totals agreeing', async () => {
    const pending = (
      await db.execute<{ id: number }>(
        sql.raw(`SELECT id FROM patients WHERE program_id = ${programIds[0]} AND status = 'pending'
          ORDER BY dob DESC NULLS LAST, id DESC`),
      )
    ).rows.map((r) => r.id);
    expect(pending.length).toBeGreaterThan(4);
    const got = await everyPage(routeUrl(patientsContract.list, { programId: programIds[0]! }), {
      per_page: 2,
      statuses: 'pending',
      sort_by: 'dob',
      sort_direction: 'DESC',
    });
    expect(got.ids).toEqual(pending);
    expect(new Set(got.totals)).toEqual(new Set([pending.length]));
  });
});

describe('keyset paging (after / before, issue 6 §4)', () => {
  for (const sort_by of PATIENT_SORT_FIELDS.filter((f) => f !== 'dob')) {
    for (const sort_direction of ['ASC', 'DESC'] as const) {
      it(`${sort_by} ${sort_direction}: forward with after, back with before, every row once on one program and on the enterprise`, async () => {
        const order = [...REFERENCE[sort_by], 'id'].map((c) => `${c} ${sort_direction}`).join(', ');
        for (const scope of ['program', 'enterprise'] as const) {
          const ids = scope === 'program' ? [programIds[0]!] : programIds;
          const expected = (
            await db.execute<{ id: number }>(
              sql.raw(`SELECT id FROM patients WHERE program_id IN (${ids.join(',')}) ORDER BY ${order}`),
            )
          ).rows.map((r) => r.id);
          const path = await listPath(scope);
          const fetchPage = async (query: Record<string, string | number>) => {
            const qs = new URLSearchParams(
              Object.fromEntries(
                Object.entries({ per_page: 7, sort_by, sort_direction, ...query }).map(([k, v]) => [
                  k,
                  String(v),
                ]),
              ),
            );
            const res = await app.inject({ method: 'GET', url: `${path}?${qs}`, headers: bearer(token) });
            expect(res.statusCode, res.body).toBe(200);
            return res.json() as { data: { id: number }[]; last_page: number; total: number };
          };
          const pages: number[][] = [];
          let page = await fetchPage({ page: 1 });
          pages.push(page.data.map((r) => r.id));
          for (let n = 2; n <= page.last_page; n++) {
            page = await fetchPage({ page: n, after: pages.at(-1)!.at(-1)! });
            pages.push(page.data.map((r) => r.id));
          }
          expect(pages.flat(), scope).toEqual(expected);
          // And back from the last page with `before`.
          const back: number[][] = [pages.at(-1)!];
          for (let n = pages.length - 1; n >= 1; n--) {
            const prev = await fetchPage({ page: n, before: back[0]![0]! });
            back.unshift(prev.data.map((r) => r.id));
          }
          expect(back.flat(), scope).toEqual(expected);
        }
      });
    }
  }

  it('falls back to the offset when the anchor is not in the list (deleted, or another program)', async () => {
    const path = routeUrl(patientsContract.list, { programId: programIds[0]! });
    const byOffset = await app.inject({
      method: 'GET',
      url: `${path}?per_page=5&page=2`,
      headers: bearer(token),
    });
    const otherProgram = (
      await db.execute<{ id: number }>(
        sql`SELECT id FROM patients WHERE program_id = ${programIds[1]!} LIMIT 1`,
      )
    ).rows[0]!.id;
    for (const after of [otherProgram, 999_999_999]) {
      const res = await app.inject({
        method: 'GET',
        url: `${path}?per_page=5&page=2&after=${after}`,
        headers: bearer(token),
      });
      expect(res.json().data, String(after)).toEqual(byOffset.json().data);
    }
  });
});
