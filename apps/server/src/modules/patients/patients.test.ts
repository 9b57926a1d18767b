import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
let db: Database;
/** Enterprise E with programs A (30 patients) and B (7); program C of another enterprise (4). */
const program = { a: 0, b: 0, c: 0 };
let enterpriseId = 0;
let otherEnterpriseId = 0;
const token = { admin: '', outsider: '', enterprise: '', physician: '' };
let physicianId = 0;
const COUNT = { a: 30, b: 7, c: 4 };

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  enterpriseId = (await g.enterprise()).id;
  otherEnterpriseId = (await g.enterprise()).id;
  program.a = (await g.program({ enterpriseId })).id;
  program.b = (await g.program({ enterpriseId })).id;
  program.c = (await g.program({ enterpriseId: otherEnterpriseId })).id;
  const names = ['Abbott', 'Baker', 'Clark', 'Diaz', 'Evans', 'Fox'];
  for (const key of ['a', 'b', 'c'] as const) {
    await g.patients(
      Array.from({ length: COUNT[key] }, (_, n) => ({
        programId: program[key],
        firstName: ['Ann', 'Ben', 'Cleo'][n % 3]!,
        lastName: `${names[n % names.length]}${key}`,
        dob: `19${40 + (n % 50)}-0${1 + (n % 9)}-1${n % 9}`,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
      })),
    );
  }
  const signed = async (input: Parameters<typeof g.admin>[0]) => {
    const staff = await g.admin({ hipaaConsented: true, ...input });
    return { id: staff.id, token: (await signIn(app, staff.email, FACTORY_PASSWORD)).token };
  };
  token.admin = (
    await signed({
      programRoles: [
        { programId: program.a, role: 'admin' },
        { programId: program.b, role: 'admin' },
      ],
    })
  ).token;
  token.outsider = (await signed({ programRoles: [{ programId: program.c, role: 'admin' }] })).token;
  token.enterprise = (await signed({ enterpriseAdminOf: [enterpriseId] })).token;
  const physician = await signed({ programRoles: [{ programId: program.a, role: 'physician' }] });
  token.physician = physician.token;
  physicianId = physician.id;
});

const get = (url: string, as: string) => app.inject({ method: 'GET', url, headers: bearer(as) });
const list = (programId: number, query = '') => `/api/v1/programs/${programId}/users${query}`;

describe('GET programs/{p}/users', () => {
  it('pages the program patients, 10 by default, sorted by name', async () => {
    const res = await get(list(program.a), token.admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ current_page: 1, per_page: 10, total: COUNT.a, last_page: 3 });
    expect(body.data).toHaveLength(10);
    const names = body.data.map(
      (p: { last_name: string; first_name: string }) => `${p.last_name} ${p.first_name}`,
    );
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }) || 0));
    expect(body.data[0]).toHaveProperty('assigned_admin');
    expect(body.data.every((p: { program_id: number }) => p.program_id === program.a)).toBe(true);
  });

  it('walks every page without repeating or losing a patient', async () => {
    const seen = new Set<number>();
    for (let page = 1; page <= 4; page++) {
      const res = await get(
        list(program.a, `?per_page=9&page=${page}&sort_by=created_at&sort_direction=desc`),
        token.admin,
      );
      for (const p of res.json().data) seen.add(p.id);
    }
    expect(seen.size).toBe(COUNT.a);
  });

  it('narrows by every word of the name search', async () => {
    const res = await get(
      list(program.a, `?name=${encodeURIComponent('be bakera')}&per_page=100`),
      token.admin,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBeGreaterThanOrEqual(1);
    expect(body.total).toBeLessThan(COUNT.a);
    for (const p of body.data) expect(`${p.first_name} ${p.last_name}`).toBe('Ben Bakera');
    // Wildcards typed by a user are literal characters.
    expect((await get(list(program.a, '?name=%25'), token.admin)).json().total).toBe(0);
  });

  it('finds a name as the list shows it ("Bakera, Ben"), an MRN and a birth date from the same search', async () => {
    const shown = await get(
      list(program.a, `?name=${encodeURIComponent('Bakera, Ben')}&per_page=100`),
      token.admin,
    );
    expect(shown.json().total).toBeGreaterThanOrEqual(1);
    for (const p of shown.json().data) expect(`${p.first_name} ${p.last_name}`).toBe('Ben Bakera');
    const first = (await get(list(program.a, '?per_page=1'), token.admin)).json().data[0];
    await db.execute(sql`UPDATE patients SET mrn = 'MRN-770123' WHERE id = ${first.id}`);
    const byMrn = (await get(list(program.a, '?name=mrn-770123'), token.admin)).json();
    expect(byMrn.data.map((p: { id: number }) => p.id)).toEqual([first.id]);
    // Its start finds it too (from three characters; "77" alone is no MRN of the program).
    const byStart = (await get(list(program.a, '?name=MRN-7701'), token.admin)).json();
    expect(byStart.data.map((p: { id: number }) => p.id)).toEqual([first.id]);
    expect((await get(list(program.a, '?name=77'), token.admin)).json().total).toBe(0);
    const byDob = (await get(list(program.a, `?name=${first.dob}&per_page=100`), token.admin)).json();
    expect(byDob.total).toBeGreaterThanOrEqual(1);
    for (const p of byDob.data) expect(p.dob).toBe(first.dob);
    // A name with a digit in it (test data, imports) is still found by name.
    const second = (await get(list(program.a, '?per_page=2'), token.admin)).json().data[1];
    await db.execute(sql`UPDATE patients SET last_name = 'Zed4x9' WHERE id = ${second.id}`);
    expect(
      (await get(list(program.a, '?name=zed4x'), token.admin)).json().data.map((p: { id: number }) => p.id),
    ).toEqual([second.id]);
    // Not a day of the calendar: no match, no database error.
    expect((await get(list(program.a, '?name=2026-02-30'), token.admin)).json().total).toBe(0);
  });

  it('sorts descending by date of birth', async () => {
    const res = await get(list(program.a, '?sort_by=dob&sort_direction=DESC&per_page=50'), token.admin);
    const dobs = res.json().data.map((p: { dob: string }) => p.dob);
    expect(dobs).toEqual([...dobs].sort().reverse());
  });

  it('answers 422 for a bad page or sort field, and caps the page size at 100', async () => {
    const res = await get(list(program.a, '?page=0&sort_by=ssn'), token.admin);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['page', 'sort_by']);
    const capped = await get(list(program.a, '?per_page=1000'), token.admin);
    expect(capped.statusCode).toBe(200);
    expect(capped.json()).toMatchObject({ per_page: 100, last_page: 1 });
    expect(capped.json().data).toHaveLength(COUNT.a);
  });

  it('answers 404 to another enterprise staff member, 401 without a token', async () => {
    expect((await get(list(program.a), token.outsider)).statusCode).toBe(404);
    expect((await get(list(program.b), token.outsider)).statusCode).toBe(404);
    expect((await get(list(999_999), token.admin)).statusCode).toBe(404);
    expect((await get('/api/v1/programs/abc/users', token.admin)).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: list(program.a) })).statusCode).toBe(401);
    // An outsider's bad input still gets 404, never a 422 that would confirm the program.
    expect((await get(list(program.a, '?page=-1'), token.outsider)).statusCode).toBe(404);
  });

  it('records the view in the audit trail without the search text', async () => {
    await get(list(program.a, '?name=zzzz'), token.admin);
    const res = await db.execute<{ details: Record<string, unknown> }>(
      sql`SELECT details FROM audit_events WHERE action = 'patients.list' ORDER BY id DESC LIMIT 1`,
    );
    expect(res.rows[0]?.details).toMatchObject({ searched: true });
    expect(JSON.stringify(res.rows[0]?.details)).not.toContain('zzzz');
  });
});

describe('GET enterprises/{e}/patients', () => {
  it('lists every program of the enterprise for its admin; program id 1 means no filter', async () => {
    const url = (query: string) => `/api/v1/enterprises/${enterpriseId}/patients?per_page=1${query}`;
    const both = COUNT.a + COUNT.b;
    const all = await get(url(''), token.enterprise);
    expect(all.statusCode).toBe(200);
    expect(all.json().total).toBe(both);
    expect((await get(url('&program_id=1'), token.enterprise)).json().total).toBe(both);
    expect((await get(url('&program_id='), token.enterprise)).json().total).toBe(both);
    expect((await get(url(`&program_id=${program.b}`), token.enterprise)).json().total).toBe(COUNT.b);
    // A program of another enterprise is not there for them (ADR 062).
    expect((await get(url(`&program_id=${program.c}`), token.enterprise)).statusCode).toBe(404);
  });

  it('answers 404 to staff of another enterprise', async () => {
    expect((await get(`/api/v1/enterprises/${enterpriseId}/patients`, token.outsider)).statusCode).toBe(404);
    expect(
      (await get(`/api/v1/enterprises/${otherEnterpriseId}/patients`, token.enterprise)).statusCode,
    ).toBe(404);
  });
});

describe('patient totals', () => {
  it('keep the per-program rollup equal to the rows through inserts, moves and deletes', async () => {
    const counts = async () =>
      (
        await db.execute<{ program_id: number; rollup: number; actual: number }>(sql`
          SELECT p.id AS program_id, coalesce(c.patients, 0)::int AS rollup,
            (SELECT count(*)::int FROM patients x WHERE x.program_id = p.id) AS actual
          FROM programs p LEFT JOIN program_patient_counts c ON c.program_id = p.id ORDER BY p.id`)
      ).rows;
    for (const row of await counts()) expect(row.rollup).toBe(row.actual);
    await db.execute(
      sql`UPDATE patients SET program_id = ${program.b} WHERE id IN (SELECT id FROM patients WHERE program_id = ${program.a} LIMIT 3)`,
    );
    await db.execute(
      sql`DELETE FROM patients WHERE id IN (SELECT id FROM patients WHERE program_id = ${program.c} LIMIT 2)`,
    );
    for (const row of await counts()) expect(row.rollup).toBe(row.actual);
    const moved = await get(list(program.b, '?per_page=1'), token.admin);
    expect(moved.json().total).toBe(COUNT.b + 3);
  });
});

describe('PHI-view audit (issue 6 §3)', () => {
  it('keeps one audit row per view through a burst of parallel reads, written without a synchronous commit', async () => {
    const count = async () =>
      (
        await db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM audit_events WHERE action = 'patients.list' AND actor_admin_id = ${physicianId}`,
        )
      ).rows[0]!.n;
    const before = await count();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        app.inject({
          method: 'GET',
          url: list(program.a, `?page=${(i % 3) + 1}`),
          headers: bearer(token.physician),
        }),
      ),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect((await count()) - before).toBe(40);
  });
});

describe('compressed API answers (issue 6 §5)', () => {
  it('compresses a large answer for clients that accept it, and leaves small ones and other clients alone', async () => {
    const url = list(program.a, '?per_page=100');
    const br = await app.inject({
      method: 'GET',
      url,
      headers: { ...bearer(token.physician), 'accept-encoding': 'br, gzip' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-store');
    const plain = await app.inject({ method: 'GET', url, headers: bearer(token.physician) });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const unpacked = brotliDecompressSync(br.rawPayload).toString();
    expect(JSON.parse(unpacked)).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gz = await app.inject({
      method: 'GET',
      url,
      headers: { ...bearer(token.physician), 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
    const small = await app.inject({
      method: 'GET',
      url: '/api/config',
      headers: { 'accept-encoding': 'br' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
