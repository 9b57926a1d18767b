import { beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../test/harness';
import type { App } from './types';

let app: App;
beforeAll(async () => {
  ({ app } = await testApp());
});

describe('OpenAPI', () => {
  it('documents the API from the same schemas, with the documentation UI at /api/docs', async () => {
    const spec = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(spec.statusCode).toBe(200);
    const doc = spec.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/auth/sign-in', '/api/v1/programs/{programId}/users']),
    );
    const list = doc.paths['/api/v1/programs/{programId}/users'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['programId', 'name', 'page', 'per_page', 'sort_by', 'sort_direction']),
    );
    const ui = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });
});
