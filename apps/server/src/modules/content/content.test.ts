import {
  contentContract as c,
  CONTENT_MESSAGES as M,
  type RouteContract,
  routeUrl,
} from '@caredeck/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
let db: Database;
const token = { ann: '', ben: '', pharma: '', outsider: '' };
const program = { a: 0, other: 0 };

const url = (contract: RouteContract, params?: Record<string, number>, query?: Record<string, string>) =>
  routeUrl(contract, params, query);
const call = (as: string, method: string, target: string, payload?: unknown) =>
  app.inject({ method: method as 'GET', url: target, payload: payload as object, headers: bearer(as) });
const count = async (table: string) =>
  Number((await db.$client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  program.a = (await g.program()).id;
  program.other = (await g.program()).id;
  const make = async (programId: number, role: 'care_coordinator' | 'pharma' = 'care_coordinator') => {
    const admin = await g.admin({ hipaaConsented: true, programRoles: [{ programId, role }] });
    return (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  };
  token.ann = await make(program.a);
  token.ben = await make(program.a);
  token.pharma = await make(program.a, 'pharma');
  token.outsider = await make(program.other);
});

describe('content library', () => {
  it('creates categories and content the whole program sees, with field errors and 404 outside', async () => {
    const made = await call(token.ann, 'POST', url(c.createCategory), {
      program_id: program.a,
      name: 'Heart health',
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({
      message: M.categoryCreated,
      data: { name: 'Heart health', contents: [] },
    });
    const categoryId = made.json().data.id as number;

    const duplicate = await call(token.ben, 'POST', url(c.createCategory), {
      program_id: program.a,
      name: ' heart HEALTH ',
    });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json().errors).toEqual({ name: [M.categoryExists] });
    const empty = await call(token.ann, 'POST', url(c.createCategory), { program_id: program.a, name: '' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.name).toBeDefined();

    const content = await call(token.ben, 'POST', url(c.createContent, { id: categoryId }), {
      title: 'Salt and blood pressure',
      body: 'Less than 1,500 mg of sodium a day.',
      url: 'https://www.heart.org/en/healthy-living/healthy-eating/eat-smart/sodium',
    });
    expect(content.statusCode, content.body).toBe(201);
    const badLink = await call(token.ben, 'POST', url(c.createContent, { id: categoryId }), {
      title: 'Bad',
      url: 'javascript:alert(1)',
    });
    expect(badLink.statusCode).toBe(422);
    expect(badLink.json().errors.url).toBeDefined();

    const list = await call(token.ann, 'GET', url(c.categories, {}, { program_id: String(program.a) }));
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([
      expect.objectContaining({
        id: categoryId,
        contents: [
          expect.objectContaining({ title: 'Salt and blood pressure', created_by: expect.any(Object) }),
        ],
      }),
    ]);

    // Another program's staff: 404 for the program and for the category, never its content.
    expect(
      (await call(token.outsider, 'GET', url(c.categories, {}, { program_id: String(program.a) })))
        .statusCode,
    ).toBe(404);
    const foreign = await call(token.outsider, 'POST', url(c.createContent, { id: categoryId }), {
      title: 'x',
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(M.categoryNotFound);
    // Pharma staff read the library but do not curate it.
    expect(
      (await call(token.pharma, 'POST', url(c.createCategory), { program_id: program.a, name: 'Other' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call(token.pharma, 'GET', url(c.categories, {}, { program_id: String(program.a) }))).statusCode,
    ).toBe(200);
    expect(
      (await app.inject({ method: 'GET', url: url(c.categories, {}, { program_id: '1' }) })).statusCode,
    ).toBe(401);
  });

  it('renames and deletes a category with its content, audited; refused outside the program and for pharma', async () => {
    const made = await call(token.ann, 'POST', url(c.createCategory), {
      program_id: program.a,
      name: 'Diet',
    });
    const id = made.json().data.id as number;
    await call(token.ann, 'POST', url(c.createContent, { id }), { title: 'Fibre', body: 'Whole grains.' });
    await call(token.ann, 'POST', url(c.createCategory), { program_id: program.a, name: 'Sleep' });

    const renamed = await call(token.ben, 'PUT', url(c.updateCategory, { id }), { name: 'Diet and fibre' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      message: M.categoryUpdated,
      data: { id, name: 'Diet and fibre', contents: [expect.objectContaining({ title: 'Fibre' })] },
    });
    // The name stays unique in the program; an empty one is refused; nothing changes.
    const taken = await call(token.ben, 'PUT', url(c.updateCategory, { id }), { name: 'sleep' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors).toEqual({ name: [M.categoryExists] });
    expect((await call(token.ben, 'PUT', url(c.updateCategory, { id }), { name: ' ' })).statusCode).toBe(422);
    // Another program's staff: 404; pharma: 403; both leave the category as it is.
    const foreign = await call(token.outsider, 'PUT', url(c.updateCategory, { id }), { name: 'Mine' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(M.categoryNotFound);
    expect((await call(token.outsider, 'DELETE', url(c.deleteCategory, { id }))).statusCode).toBe(404);
    expect(
      (await call(token.pharma, 'PUT', url(c.updateCategory, { id }), { name: 'Pharma' })).statusCode,
    ).toBe(403);
    expect((await call(token.pharma, 'DELETE', url(c.deleteCategory, { id }))).statusCode).toBe(403);

    const items = await count('content_items');
    const deleted = await call(token.ann, 'DELETE', url(c.deleteCategory, { id }));
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ message: M.categoryDeleted });
    expect(await count('content_items')).toBe(items - 1);
    const list = await call(token.ann, 'GET', url(c.categories, {}, { program_id: String(program.a) }));
    expect(list.json().data.map((x: { name: string }) => x.name)).not.toContain('Diet and fibre');
    expect((await call(token.ann, 'DELETE', url(c.deleteCategory, { id }))).statusCode).toBe(404);
    const audited = await db.$client.query(
      `SELECT action, details FROM audit_events WHERE subject_type = 'content_category' AND subject_id = $1
       ORDER BY id`,
      [id],
    );
    expect(audited.rows.map((r) => r.action)).toEqual([
      'content.category_created',
      'content.category_renamed',
      'content.category_deleted',
    ]);
    expect(audited.rows[2].details).toEqual({ items: 1 });
  });
});

describe('text-message folders and SMS questions', () => {
  it("keeps each staff member's folders and templates to themselves, and offers their questions", async () => {
    const folder = await call(token.ann, 'POST', url(c.createFolder), {
      program_id: program.a,
      name: 'Refills',
    });
    expect(folder.statusCode, folder.body).toBe(201);
    const folderId = folder.json().data.id as number;
    expect(
      (await call(token.ann, 'POST', url(c.createFolder), { program_id: program.a, name: 'refills' })).json()
        .errors,
    ).toEqual({ name: [M.folderExists] });
    // Another person may use the same name for their own folder.
    expect(
      (await call(token.ben, 'POST', url(c.createFolder), { program_id: program.a, name: 'Refills' }))
        .statusCode,
    ).toBe(201);

    const question = await call(token.ann, 'POST', url(c.createTemplate, { id: folderId }), {
      name: 'Pharmacy pick-up',
      body: 'Hi {first_name}, have you picked up your refill? Reply YES or NO.',
      question: true,
    });
    expect(question.statusCode, question.body).toBe(201);
    const note = await call(token.ann, 'POST', url(c.createTemplate, { id: folderId }), {
      name: 'Reminder',
      body: 'Your refill is ready at the pharmacy.',
    });
    expect(note.json().data.question).toBe(false);
    const tooLong = await call(token.ann, 'POST', url(c.createTemplate, { id: folderId }), {
      name: 'Long',
      body: 'x'.repeat(1601),
    });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().errors.body).toBeDefined();

    // Ben, in the same program, cannot see, rename, fill or delete Ann's folder or templates.
    const bens = await call(token.ben, 'GET', url(c.folders, {}, { program_id: String(program.a) }));
    expect(bens.json().data.map((f: { id: number }) => f.id)).not.toContain(folderId);
    for (const attempt of [
      call(token.ben, 'PUT', url(c.updateFolder, { id: folderId }), { name: 'Mine' }),
      call(token.ben, 'DELETE', url(c.deleteFolder, { id: folderId })),
      call(token.ben, 'POST', url(c.createTemplate, { id: folderId }), { name: 'x', body: 'y' }),
      call(token.ben, 'POST', url(c.updateTemplate, { id: note.json().data.id }), { name: 'x', body: 'y' }),
      call(token.ben, 'DELETE', url(c.deleteTemplate, { id: note.json().data.id })),
      call(token.outsider, 'DELETE', url(c.deleteFolder, { id: folderId })),
    ])
      expect((await attempt).statusCode).toBe(404);

    const updated = await call(token.ann, 'POST', url(c.updateTemplate, { id: note.json().data.id }), {
      name: 'Ready for pick-up',
      body: 'Your refill is ready, {first_name}.',
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ message: M.templateUpdated, data: { name: 'Ready for pick-up' } });
    // A question template changed without `question` stays a question.
    const reworded = await call(token.ann, 'POST', url(c.updateTemplate, { id: question.json().data.id }), {
      name: 'Pharmacy pick-up',
      body: 'Hi {first_name}, is your refill picked up? Reply YES or NO.',
    });
    expect(reworded.json().data).toMatchObject({ question: true });

    const questions = await call(
      token.ann,
      'GET',
      url(c.smsQuestions, {}, { program_id: String(program.a) }),
    );
    expect(questions.statusCode).toBe(200);
    const list = questions.json().data as { source: string; key: string }[];
    expect(list.filter((q) => q.source === 'standard').length).toBeGreaterThanOrEqual(5);
    expect(list.filter((q) => q.source === 'mine').map((q) => q.key)).toEqual(['Pharmacy pick-up']);
    const bensQuestions = await call(
      token.ben,
      'GET',
      url(c.smsQuestions, {}, { program_id: String(program.a) }),
    );
    expect(bensQuestions.json().data.some((q: { source: string }) => q.source === 'mine')).toBe(false);

    const renamed = await call(token.ann, 'PUT', url(c.updateFolder, { id: folderId }), { name: 'Pharmacy' });
    expect(renamed.json()).toMatchObject({ message: M.folderUpdated, data: { name: 'Pharmacy' } });
    const templatesBefore = await count('text_message_templates');
    const removed = await call(token.ann, 'DELETE', url(c.deleteFolder, { id: folderId }));
    expect(removed.json()).toEqual({ message: M.folderDeleted });
    expect(await count('text_message_templates')).toBe(templatesBefore - 2);
    expect((await call(token.ann, 'DELETE', url(c.deleteFolder, { id: folderId }))).statusCode).toBe(404);
  });
});
