import {
  tagsContract as c,
  TAG_MESSAGES as M,
  PROTOCOL_MESSAGES as PM,
  protocolsContract as p,
  routeUrl,
} from '@caredeck/contracts';
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
let programId = 0;
let otherProgram = 0;
let coordinator = '';
let physician = '';
let pharma = '';
let outsider = '';

const send = (as: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: bearer(as) });

beforeAll(async () => {
  const t = await testApp();
  app = t.app;
  db = t.db;
  const g = given(db);
  programId = (await g.program()).id;
  otherProgram = (await g.program()).id;
  const sign = async (
    programRoles: { programId: number; role: 'physician' | 'care_coordinator' | 'pharma' | 'admin' }[],
  ) =>
    (await signIn(app, (await g.admin({ hipaaConsented: true, programRoles })).email, FACTORY_PASSWORD))
      .token;
  coordinator = await sign([{ programId, role: 'care_coordinator' }]);
  physician = await sign([{ programId, role: 'physician' }]);
  pharma = await sign([{ programId, role: 'pharma' }]);
  outsider = await sign([{ programId: otherProgram, role: 'admin' }]);
});

describe('tags', () => {
  it('keeps tags in folders, puts them on patients, and answers with the spec’s messages', async () => {
    const folder = await send(coordinator, 'POST', c.createFolder.path, {
      program_id: programId,
      name: 'Risk',
    });
    expect(folder.json()).toMatchObject({ message: M.folderCreated, data: { name: 'Risk', tags: 0 } });
    const folderId = folder.json().data.id as number;
    const tag = await send(coordinator, 'POST', c.create.path, {
      program_id: programId,
      name: 'Fall risk',
      folder_id: folderId,
      color: '#e8590c',
    });
    expect(tag.statusCode).toBe(201);
    expect(tag.json()).toMatchObject({
      message: M.created,
      data: { name: 'Fall risk', folder_id: folderId },
    });
    const tagId = tag.json().data.id as number;
    expect(
      (await send(coordinator, 'POST', c.create.path, { program_id: programId, name: 'fall RISK' })).json(),
    ).toMatchObject({
      errors: { name: [M.nameTaken] },
    });
    const renamed = await send(coordinator, 'PUT', routeUrl(c.update, { id: String(tagId) }), {
      name: 'High fall risk',
    });
    // A rename keeps the colour; null removes it.
    expect(renamed.json()).toMatchObject({
      message: M.updated,
      data: { name: 'High fall risk', color: '#e8590c' },
    });
    const plain = await send(coordinator, 'PUT', routeUrl(c.update, { id: String(tagId) }), { color: null });
    expect(plain.json().data).toMatchObject({ name: 'High fall risk', color: null });
    expect(
      (
        await send(coordinator, 'PUT', routeUrl(c.updateFolder, { id: String(folderId) }), { name: 'Risks' })
      ).json(),
    ).toMatchObject({ message: M.folderUpdated, data: { name: 'Risks', tags: 1 } });

    const patient = await given(db).patient({ programId });
    const set = await send(coordinator, 'PUT', routeUrl(c.setPatientTags, { id: String(patient.id) }), {
      tag_ids: [tagId],
    });
    expect(set.json()).toMatchObject({ message: M.patientTagged, data: [{ id: tagId, patients: 1 }] });
    expect(
      (await send(pharma, 'GET', routeUrl(c.patientTags, { id: String(patient.id) }))).json().data,
    ).toHaveLength(1);
    const listed = await send(
      pharma,
      'GET',
      routeUrl(c.list, undefined, { program_id: String(programId), folder_id: String(folderId) }),
    );
    expect(listed.json().data).toEqual([expect.objectContaining({ id: tagId, patients: 1 })]);

    expect(
      (await send(coordinator, 'DELETE', routeUrl(c.deleteFolder, { id: String(folderId) }))).json(),
    ).toEqual({
      message: M.folderDeleted,
    });
    const kept = (
      await db.execute<{ folder_id: number | null }>(sql`SELECT folder_id FROM tags WHERE id = ${tagId}`)
    ).rows[0];
    expect(kept!.folder_id).toBeNull();
  });

  it('answers 404 across programs, 422 for another program’s tags, 403 without a care role', async () => {
    const theirs = await send(outsider, 'POST', c.create.path, { program_id: otherProgram, name: 'Theirs' });
    const theirId = theirs.json().data.id as number;
    const patient = await given(db).patient({ programId });
    expect(
      (await send(coordinator, 'PUT', routeUrl(c.update, { id: String(theirId) }), { name: 'Mine' }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await send(coordinator, 'PUT', routeUrl(c.setPatientTags, { id: String(patient.id) }), {
          tag_ids: [theirId],
        })
      ).json(),
    ).toMatchObject({ errors: { tag_ids: [M.unknownTags] } });
    expect(
      (await send(outsider, 'GET', routeUrl(c.patientTags, { id: String(patient.id) }))).statusCode,
    ).toBe(404);
    expect(
      (await send(outsider, 'GET', routeUrl(c.list, undefined, { program_id: String(programId) })))
        .statusCode,
    ).toBe(404);
    expect(
      (await send(pharma, 'POST', c.create.path, { program_id: programId, name: 'No' })).statusCode,
    ).toBe(403);
  });
});

describe('protocols', () => {
  it('creates and versions a care protocol; coordinators read it, physicians write it', async () => {
    const body = {
      program_id: programId,
      name: 'Blood pressure above 180/110',
      description: 'What the team does when a reading is in crisis range.',
      steps: [
        { title: 'Repeat the reading after 5 minutes of rest' },
        { title: 'Call the patient', detail: 'Ask about chest pain, vision and headache.' },
      ],
    };
    expect((await send(coordinator, 'POST', p.create.path, body)).statusCode).toBe(403);
    const created = await send(physician, 'POST', p.create.path, body);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      message: PM.created,
      data: { version: 1, steps: [{ detail: '' }, {}] },
    });
    const id = created.json().data.id as number;
    expect((await send(physician, 'POST', p.create.path, body)).json()).toMatchObject({
      errors: { name: [PM.nameTaken] },
    });
    expect((await send(physician, 'POST', p.create.path, { ...body, name: '' })).statusCode).toBe(422);

    const { program_id: _p, ...update } = body;
    const updated = await send(physician, 'POST', routeUrl(p.update, { id: String(id) }), {
      ...update,
      steps: [...body.steps, { title: 'Escalate to the physician on call' }],
    });
    expect(updated.json()).toMatchObject({ message: PM.updated, data: { version: 2 } });
    expect(updated.json().data.steps).toHaveLength(3);
    const versions = await db.execute(sql`SELECT version FROM protocol_versions WHERE protocol_id = ${id}`);
    expect(versions.rows).toEqual([{ version: 1 }]);
    const listed = await send(
      coordinator,
      'GET',
      routeUrl(p.list, undefined, { program_id: String(programId) }),
    );
    expect(listed.json().data).toEqual([expect.objectContaining({ id, version: 2 })]);
    // A new version that names only what changes keeps the rest.
    const renamed = await send(physician, 'POST', routeUrl(p.update, { id: String(id) }), {
      name: 'Blood pressure in crisis range',
    });
    expect(renamed.json().data).toMatchObject({
      version: 3,
      name: 'Blood pressure in crisis range',
      description: body.description,
      active: true,
    });
    expect(renamed.json().data.steps).toHaveLength(3);
    expect((await send(outsider, 'POST', routeUrl(p.update, { id: String(id) }), update)).statusCode).toBe(
      404,
    );
  });
});
