import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { adminId, bearer, seedDemoData, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';

let app: App;
let db: Database;
let admin: string;
let outsider: string;
let enterprise: string;

beforeAll(async () => {
  ({ app, db } = await testApp());
  await seedDemoData(db);
  admin = (await signIn(app, 'admin@caredeck.demo')).token;
  outsider = (await signIn(app, 'outsider@caredeck.demo')).token;
  enterprise = (await signIn(app, 'enterprise@caredeck.demo')).token;
});

const get = (url: string, token: string) => app.inject({ method: 'GET', url, headers: bearer(token) });

describe('GET programs/{p}/users', () => {
  it('pages the program patients, 10 by default, sorted by name', async () => {
    const res = await get('/api/v1/programs/1/users', admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ current_page: 1, per_page: 10, total: 240, last_page: 24 });
    expect(body.data).toHaveLength(10);
    const names = body.data.map(
      (p: { last_name: string; first_name: string }) => `${p.last_name} ${p.first_name}`,
    );
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }) || 0));
    expect(body.data[0]).toHaveProperty('assigned_admin');
    expect(body.data.every((p: { program_id: number }) => p.program_id === 1)).toBe(true);
  });

  it('walks every page without repeating or losing a patient', async () => {
    const seen = new Set<number>();
    for (let page = 1; page <= 3; page++) {
      const res = await get(
        `/api/v1/programs/1/users?per_page=100&page=${page}&sort_by=created_at&sort_direction=desc`,
        admin,
      );
      for (const p of res.json().data) seen.add(p.id);
    }
    expect(seen.size).toBe(240);
  });

  it('narrows by every word of the name search', async () => {
    const one = await db.execute<{ first_name: string; last_name: string }>(
      sql`SELECT first_name, last_name FROM patients WHERE program_id = 1 ORDER BY id LIMIT 1`,
    );
    const { first_name, last_name } = one.rows[0]!;
    const query = encodeURIComponent(`${first_name.slice(0, 3)} ${last_name}`);
    const res = await get(`/api/v1/programs/1/users?name=${query}&per_page=100`, admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBeGreaterThanOrEqual(1);
    expect(body.total).toBeLessThan(240);
    for (const p of body.data) {
      expect(`${p.first_name} ${p.last_name}`.toLowerCase()).toContain(last_name.toLowerCase());
    }
    // Wildcards typed by a user are literal characters.
    expect((await get('/api/v1/programs/1/users?name=%25', admin)).json().total).toBe(0);
  });

  it('sorts descending by date of birth', async () => {
    const res = await get('/api/v1/programs/1/users?sort_by=dob&sort_direction=DESC&per_page=50', admin);
    const dobs = res.json().data.map((p: { dob: string }) => p.dob);
    expect(dobs).toEqual([...dobs].sort().reverse());
  });

  it('answers 422 for a bad page or sort field, and caps the page size at 100', async () => {
    const res = await get('/api/v1/programs/1/users?page=0&sort_by=ssn', admin);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['page', 'sort_by']);
    const capped = await get('/api/v1/programs/1/users?per_page=1000', admin);
    expect(capped.statusCode).toBe(200);
    expect(capped.json()).toMatchObject({ per_page: 100, last_page: 3 });
    expect(capped.json().data).toHaveLength(100);
  });

  it('answers 404 to another enterprise staff member, 401 without a token', async () => {
    expect((await get('/api/v1/programs/1/users', outsider)).statusCode).toBe(404);
    expect((await get('/api/v1/programs/2/users', outsider)).statusCode).toBe(404);
    expect((await get('/api/v1/programs/999/users', admin)).statusCode).toBe(404);
    expect((await get('/api/v1/programs/abc/users', admin)).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/v1/programs/1/users' })).statusCode).toBe(401);
    // An outsider's bad input still gets 404, never a 422 that would confirm the program.
    expect((await get('/api/v1/programs/1/users?page=-1', outsider)).statusCode).toBe(404);
  });

  it('records the view in the audit trail without the search text', async () => {
    await get('/api/v1/programs/1/users?name=zzzz', admin);
    const res = await db.execute<{ details: Record<string, unknown> }>(
      sql`SELECT details FROM audit_events WHERE action = 'patients.list' ORDER BY id DESC LIMIT 1`,
    );
    expect(res.rows[0]?.details).toMatchObject({ searched: true });
    expect(JSON.stringify(res.rows[0]?.details)).not.toContain('zzzz');
  });
});

describe('GET enterprises/{e}/patients', () => {
  it('lists every program of the enterprise for its admin; program id 1 means no filter', async () => {
    const all = await get('/api/v1/enterprises/1/patients?per_page=1', enterprise);
    expect(all.statusCode).toBe(200);
    expect(all.json().total).toBe(285);
    expect(
      (await get('/api/v1/enterprises/1/patients?per_page=1&program_id=1', enterprise)).json().total,
    ).toBe(285);
    expect(
      (await get('/api/v1/enterprises/1/patients?per_page=1&program_id=', enterprise)).json().total,
    ).toBe(285);
    expect(
      (await get('/api/v1/enterprises/1/patients?per_page=1&program_id=2', enterprise)).json().total,
    ).toBe(45);
    // A program of another enterprise narrows to nothing rather than leaking.
    expect(
      (await get('/api/v1/enterprises/1/patients?per_page=1&program_id=3', enterprise)).json().total,
    ).toBe(0);
  });

  it('answers 404 to staff of another enterprise', async () => {
    expect((await get('/api/v1/enterprises/1/patients', outsider)).statusCode).toBe(404);
    expect((await get('/api/v1/enterprises/2/patients', enterprise)).statusCode).toBe(404);
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
      sql`UPDATE patients SET program_id = 2 WHERE id IN (SELECT id FROM patients WHERE program_id = 1 LIMIT 3)`,
    );
    await db.execute(
      sql`DELETE FROM patients WHERE id IN (SELECT id FROM patients WHERE program_id = 3 LIMIT 2)`,
    );
    for (const row of await counts()) expect(row.rollup).toBe(row.actual);
    const list = await get('/api/v1/programs/2/users?per_page=1', admin);
    expect(list.json().total).toBe(48);
  });
});

describe('PHI-view audit (issue 6 §3)', () => {
  it('keeps one audit row per view through a burst of parallel reads, written without a synchronous commit', async () => {
    const count = async () =>
      (
        await db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM audit_events WHERE action = 'patients.list' AND actor_admin_id = ${await adminId(db, 'physician@caredeck.demo')}`,
        )
      ).rows[0]!.n;
    const { token } = await signIn(app, 'physician@caredeck.demo');
    const before = await count();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        app.inject({
          method: 'GET',
          url: `/api/v1/programs/1/users?page=${(i % 3) + 1}`,
          headers: bearer(token),
        }),
      ),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect((await count()) - before).toBe(40);
  });
});

describe('compressed API answers (issue 6 §5)', () => {
  it('compresses a large answer for clients that accept it, and leaves small ones and other clients alone', async () => {
    const { token } = await signIn(app, 'physician@caredeck.demo');
    const url = '/api/v1/programs/1/users?per_page=100';
    const br = await app.inject({
      method: 'GET',
      url,
      headers: { ...bearer(token), 'accept-encoding': 'br, gzip' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-store');
    const plain = await app.inject({ method: 'GET', url, headers: bearer(token) });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const unpacked = brotliDecompressSync(br.rawPayload).toString();
    expect(JSON.parse(unpacked)).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gz = await app.inject({
      method: 'GET',
      url,
      headers: { ...bearer(token), 'accept-encoding': 'gzip' },
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
