import { PATIENT_SORT_FIELDS, patientsContract, routeUrl } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, DEMO_PASSWORD, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { listMarks, MARK_STEP } from './list-marks';

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

describe('deep pages of a large program, sought from page marks', () => {
  it('answers every deep page in the promised order, before and after the marks exist and after a change', async () => {
    const { program, patients } = given(db);
    const big = await program({ name: 'Paging big' });
    await db.execute(
      sql`INSERT INTO admin_program_roles (admin_id, program_id, role)
          SELECT id, ${big.id}, 'admin' FROM admins WHERE email = 'pager@caredeck.demo'`,
    );
    const created = new Date('2026-01-01T00:00:00Z');
    await patients(
      Array.from({ length: MARK_STEP * 2 + 345 }, (_, n) => ({
        programId: big.id,
        // Many ties, so a mark falls inside runs of equal names, statuses and times.
        firstName: ['Ann', 'Bo', 'Cy', 'Di'][n % 4]!,
        lastName: `Name${String(n % 37).padStart(2, '0')}`,
        status: (['active', 'inactive', 'pending'] as const)[n % 3],
        createdAt: new Date(created.getTime() + (n % 50) * 1000),
      })),
    );
    const path = routeUrl(patientsContract.list, { programId: big.id });
    const page = async (sort_by: string, sort_direction: string, n: number) => {
      const res = await app.inject({
        method: 'GET',
        url: `${path}?${new URLSearchParams({ sort_by, sort_direction, per_page: '100', page: String(n) })}`,
        headers: bearer(token),
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: { id: number }[] }).data.map((r) => r.id);
    };
    const marksReady = async (sort_by: string, direction: 'asc' | 'desc') => {
      const v = await db.execute<{ v: number }>(
        sql`SELECT version AS v FROM program_patient_counts WHERE program_id = ${big.id}`,
      );
      for (let i = 0; i < 100; i++) {
        if (listMarks.get(`${big.id}|${sort_by}|${direction}`, v.rows[0]!.v)) return;
        // A deep page asks for them (builds pause a moment between two of one order).
        await page(sort_by, direction.toUpperCase(), 15);
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the page marks were not built');
    };
    const expected = async (sort_by: keyof typeof REFERENCE, dir: 'ASC' | 'DESC') =>
      (
        await db.execute<{ id: number }>(
          sql.raw(`SELECT id FROM patients WHERE program_id = ${big.id}
            ORDER BY ${[...REFERENCE[sort_by], 'id'].map((c) => `${c} ${dir}`).join(', ')}`),
        )
      ).rows.map((r) => r.id);
    const deepPages = [11, 12, 17, 20, 21, 24];
    for (const [sort_by, dir] of [
      ['name', 'ASC'],
      ['status', 'DESC'],
      ['created_at', 'ASC'],
      ['first_name', 'DESC'],
    ] as const) {
      const want = await expected(sort_by, dir);
      const check = async () => {
        for (const n of deepPages)
          expect(await page(sort_by, dir, n), `${sort_by} ${dir} page ${n}`).toEqual(
            want.slice((n - 1) * 100, n * 100),
          );
      };
      await check(); // by OFFSET; the marks are built meanwhile
      await marksReady(sort_by, dir === 'ASC' ? 'asc' : 'desc');
      await check(); // from the marks
    }
    // A change moves the version on: the old marks are not used, the pages stay right.
    await db.execute(sql`UPDATE patients SET last_name = 'Aaron' WHERE id = (
      SELECT id FROM patients WHERE program_id = ${big.id} ORDER BY last_name DESC, first_name DESC, id DESC LIMIT 1)`);
    const want = await expected('name', 'ASC');
    for (const n of deepPages)
      expect(await page('name', 'ASC', n)).toEqual(want.slice((n - 1) * 100, n * 100));
    await marksReady('name', 'asc');
    for (const n of deepPages)
      expect(await page('name', 'ASC', n)).toEqual(want.slice((n - 1) * 100, n * 100));
  });
});
