import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { testConfig } from '../../config';
import { testDatabase } from '../../test/harness';
import { access } from '../access/rules';
import type { App } from './types';

const PHI = 'Jane Roe 1970-01-01';
const lines: string[] = [];
let app: App;

beforeAll(async () => {
  const { db } = await testDatabase();
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  ({ app } = await buildApp({
    config: testConfig({ WEB_DIST: '/nonexistent' }),
    db,
    logOptions: { level: 'trace', stream },
  }));
  // A failing query whose parameters and database message carry PHI, like a search or a failed insert.
  app.get('/api/v1/test-failure', { config: { access: access.public() } }, async () => {
    await db.execute(sql`SELECT ${PHI}::int AS n`);
    return {};
  });
  app.get('/api/v1/test-failure-wrapped', { config: { access: access.public() } }, async () => {
    throw new Error(`outer ${PHI}`, { cause: new Error(`inner\n${PHI}`) });
  });
  await app.ready();
  return () => app.close();
});

describe('PHI stays out of the log (issue 5 §6)', () => {
  it('logs the route pattern with numeric ids only: a phone number or link token in the path stays out', async () => {
    const phone = '+15555550123';
    await app.inject({ method: 'GET', url: `/api/v1/temp_messages_history/${encodeURIComponent(phone)}` });
    await app.inject({ method: 'GET', url: '/api/v1/order-form-links/secret-link-token-xyz' });
    await app.inject({ method: 'GET', url: '/api/v1/programs/1/users/42/regimens?name=Jane' });
    const log = lines.join('');
    expect(log).toContain('"path":"/api/v1/temp_messages_history/:phone"');
    expect(log).toContain('"path":"/api/v1/order-form-links/:token"');
    expect(log).toContain('"path":"/api/v1/programs/1/users/42/regimens"');
    expect(log).not.toContain('5555550123');
    expect(log).not.toContain('secret-link-token');
    expect(log).not.toContain('Jane');
  });

  it('logs a failed query with its type, code and stack frames, never its message or parameters', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/test-failure?name=${encodeURIComponent(PHI)}`,
    });
    expect(res.statusCode).toBe(500);
    expect(Object.keys(res.json()).sort()).toEqual(['error_id', 'message']);
    const log = lines.join('');
    expect(log).toContain(res.json().error_id);
    expect(log).toContain('22P02'); // invalid_text_representation, from the cause
    expect(log).toMatch(/"frames":\["at /);
    expect(log).not.toContain('Jane');
    // The birth date, not any '1970' (a response time such as 6.0511970… holds those digits).
    expect(log).not.toContain('1970-01-01');
    expect(log).not.toMatch(/Failed query|params:/);
  });

  it('keeps causes to types and frames too', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/test-failure-wrapped' });
    expect(res.statusCode).toBe(500);
    const log = lines.join('');
    expect(log).toContain('"cause":{"type":"Error"');
    expect(log).not.toContain('Jane');
  });
});
