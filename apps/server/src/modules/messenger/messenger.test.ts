import { messengerContract as c, type RouteContract, routeUrl } from '@caredeck/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
const staff = {
  ann: { id: 0, token: '' },
  ben: { id: 0, token: '' },
  cat: { id: 0, token: '' },
  out: { id: 0, token: '' },
};
const program = { a: 0, other: 0 };

const url = (contract: RouteContract, params?: Record<string, number>, query?: Record<string, string>) =>
  routeUrl(contract, params, query);
const call = (as: string, method: string, target: string, payload?: unknown) =>
  app.inject({ method: method as 'GET', url: target, payload: payload as object, headers: bearer(as) });

/** A minimal valid PDF (file-type recognises it by its %PDF- signature). */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

function form(fields: Record<string, string>, files: { name: string; bytes: Buffer; type?: string }[] = []) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const file of files)
    f.append('files', new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
  return f;
}

async function conversationFor(as: string, name: string, users: number[]) {
  const res = await call(as, 'POST', url(c.create), { program_id: program.a, name, users });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as number;
}

async function post(as: string, id: number, body: Record<string, unknown>) {
  const res = await call(as, 'POST', url(c.post, { id }), body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; parent_id: number | null };
}

const view = async (as: string, id: number) =>
  (await call(as, 'GET', url(c.list))).json().data.find((x: { id: number }) => x.id === id);

beforeAll(async () => {
  let db: Parameters<typeof given>[0];
  ({ app, db } = await testApp({ MESSENGER_MAX_FILE_MB: 1 }));
  const g = given(db);
  program.a = (await g.program()).id;
  program.other = (await g.program()).id;
  const make = async (who: keyof typeof staff, programId: number, givenName: string) => {
    const admin = await g.admin({
      givenName,
      hipaaConsented: true,
      programRoles: [{ programId, role: 'care_coordinator' }],
    });
    staff[who] = { id: admin.id, token: (await signIn(app, admin.email, FACTORY_PASSWORD)).token };
  };
  await make('ann', program.a, 'Ann');
  await make('ben', program.a, 'Ben');
  await make('cat', program.a, 'Cat');
  await make('out', program.other, 'Otto');
});

describe('conversations', () => {
  it('starts a conversation with staff of the program; the creator owns it', async () => {
    const res = await call(staff.ann.token, 'POST', url(c.create), {
      program_id: program.a,
      name: 'Night shift',
      users: [staff.ben.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      name: 'Night shift',
      conversationName: 'Night shift',
      chat_role: 'owner',
      unreadCount: 0,
    });
    expect(data.users.map((u: { id: number }) => u.id).sort()).toEqual([staff.ann.id, staff.ben.id].sort());
    // Ben was told he was added.
    const notes = await call(staff.ben.token, 'GET', url(c.notifications));
    expect(notes.json().data[0]).toMatchObject({
      kind: 'added',
      conversation_id: data.id,
      conversation_name: 'Night shift',
    });
  });

  it('refuses staff of another program, a program the creator does not work in, and a blank name', async () => {
    const foreign = await call(staff.ann.token, 'POST', url(c.create), {
      program_id: program.a,
      name: 'X',
      users: [staff.out.id],
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.users).toEqual(['Only staff of this program can join the conversation.']);
    const notMine = await call(staff.ann.token, 'POST', url(c.create), {
      program_id: program.other,
      name: 'X',
      users: [],
    });
    // A program one does not work in is not there for them (ADR 062).
    expect(notMine.statusCode).toBe(404);
    const blank = await call(staff.ann.token, 'POST', url(c.create), {
      program_id: program.a,
      name: '  ',
      users: [],
    });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().errors.name).toEqual(['Enter a name for the conversation.']);
    expect((await app.inject({ method: 'GET', url: url(c.list) })).statusCode).toBe(401);
  });

  it('answers 404 to non-members and to staff of other programs, for every call on a conversation', async () => {
    const id = await conversationFor(staff.ann.token, 'Private', [staff.ben.id]);
    for (const who of [staff.cat, staff.out]) {
      expect((await call(who.token, 'GET', url(c.get, { id }))).statusCode).toBe(404);
      expect((await call(who.token, 'POST', url(c.post, { id }), { body: 'hi' })).statusCode).toBe(404);
      expect((await call(who.token, 'GET', url(c.files, { id }))).statusCode).toBe(404);
      expect(
        (
          await call(who.token, 'PUT', url(c.acknowledge, { conversationId: id, userId: who.id }), {
            parent_id: 1,
          })
        ).statusCode,
      ).toBe(404);
    }
    expect((await call(staff.ann.token, 'GET', url(c.get, { id: 987654 }))).statusCode).toBe(404);
    expect(await view(staff.cat.token, id)).toBeUndefined();
  });
});

describe('messages, unread counts and mentions (02 §4)', () => {
  it('counts unread for the others; opening the conversation clears the count and the mention flag', async () => {
    const id = await conversationFor(staff.ann.token, 'Ward 3', [staff.ben.id, staff.cat.id]);
    await post(staff.ann.token, id, { body: 'Morning all' });
    await post(staff.ann.token, id, {
      body: '@Ben can you call Mr Doe?',
      mentions: [staff.ben.id, staff.out.id],
    });
    expect(await view(staff.ann.token, id)).toMatchObject({ unreadCount: 0, mentionedUnreadAdmin: false });
    expect(await view(staff.ben.token, id)).toMatchObject({ unreadCount: 2, mentionedUnreadAdmin: true });
    expect(await view(staff.cat.token, id)).toMatchObject({ unreadCount: 2, mentionedUnreadAdmin: false });
    const mentions = await call(staff.ben.token, 'GET', url(c.unreadMentions));
    expect(mentions.json().data.map((x: { id: number }) => x.id)).toContain(id);
    const count = await call(staff.ben.token, 'GET', url(c.count));
    expect(count.json()).toMatchObject({ mentions: 1 });
    expect(count.json().count).toBeGreaterThanOrEqual(2);
    const notes = await call(staff.ben.token, 'GET', url(c.notifications, undefined, { unread: '1' }));
    expect(notes.json().data[0]).toMatchObject({
      kind: 'mention',
      preview: '@Ben can you call Mr Doe?',
      read: false,
    });

    const opened = await call(staff.ben.token, 'GET', url(c.get, { id }));
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().messages.map((m: { body: string }) => m.body)).toEqual([
      'Morning all',
      '@Ben can you call Mr Doe?',
    ]);
    expect(opened.json().messages[1].mentions).toEqual([staff.ben.id]);
    expect(await view(staff.ben.token, id)).toMatchObject({ unreadCount: 0, mentionedUnreadAdmin: false });
    expect(
      (await call(staff.ben.token, 'GET', url(c.unreadMentions)))
        .json()
        .data.map((x: { id: number }) => x.id),
    ).not.toContain(id);
    // Cat marks it unread again after reading, then reads all.
    await call(staff.cat.token, 'PUT', url(c.read, { id }));
    expect(await view(staff.cat.token, id)).toMatchObject({ unreadCount: 0 });
    await call(staff.cat.token, 'PUT', url(c.unread, { id }));
    expect(await view(staff.cat.token, id)).toMatchObject({ unreadCount: 1 });
    expect((await call(staff.cat.token, 'PUT', url(c.readAll))).statusCode).toBe(200);
    expect(await view(staff.cat.token, id)).toMatchObject({ unreadCount: 0 });
  });

  it('threads: replies count for the others, urgent replies flag the conversation until someone else acknowledges', async () => {
    const id = await conversationFor(staff.ann.token, 'Escalations', [staff.ben.id]);
    const root = await post(staff.ann.token, id, { body: 'BP 190/120 for Mrs Roe' });
    const reply = await post(staff.ann.token, id, {
      body: 'Please call her now',
      parent_id: root.id,
      urgent: true,
    });
    expect(reply.parent_id).toBe(root.id);
    // A reply to a reply joins the same thread.
    const nested = await post(staff.ann.token, id, { body: 'Number on file', parent_id: reply.id });
    expect(nested.parent_id).toBe(root.id);
    expect(await view(staff.ben.token, id)).toMatchObject({ urgent: true, threads_unread_count: 2 });
    expect(await view(staff.ann.token, id)).toMatchObject({ urgent: false });
    const thread = await call(staff.ben.token, 'GET', url(c.thread, { id, messageId: root.id }));
    expect(thread.json().data).toMatchObject({ id: root.id, threads_count: 2 });
    expect(thread.json().replies.map((m: { body: string }) => m.body)).toEqual([
      'Please call her now',
      'Number on file',
    ]);

    const ack = await call(
      staff.ben.token,
      'PUT',
      url(c.acknowledge, { conversationId: id, userId: staff.ben.id }),
      {
        parent_id: root.id,
      },
    );
    expect(ack.statusCode, ack.body).toBe(200);
    expect(await view(staff.ben.token, id)).toMatchObject({
      urgent: false,
      unreadCount: 0,
      threads_unread_count: 0,
    });
    const replies = (await call(staff.ann.token, 'GET', url(c.thread, { id, messageId: root.id }))).json()
      .replies;
    expect(replies[0].acknowledged_by).toEqual([expect.objectContaining({ id: staff.ben.id })]);
    // One acknowledges only as oneself.
    const asOther = await call(
      staff.ben.token,
      'PUT',
      url(c.acknowledge, { conversationId: id, userId: staff.ann.id }),
      {
        parent_id: root.id,
      },
    );
    expect(asOther.statusCode).toBe(403);
    const wrong = await call(
      staff.ben.token,
      'PUT',
      url(c.acknowledge, { conversationId: id, userId: staff.ben.id }),
      {
        parent_id: 99999999,
      },
    );
    expect(wrong.statusCode).toBe(422);

    await post(staff.ann.token, id, { body: 'Update', parent_id: root.id });
    expect(await view(staff.ben.token, id)).toMatchObject({ threads_unread_count: 1 });
    const cleared = await call(staff.ben.token, 'POST', url(c.clearThreads, { id, messageId: root.id }));
    expect(cleared.json().data).toMatchObject({ threads_unread_count: 0 });
  });

  it('thumbs-up toggles; search finds messages; a message needs text or a file', async () => {
    const id = await conversationFor(staff.ann.token, 'Pharmacy', [staff.ben.id]);
    const m = await post(staff.ann.token, id, { body: 'Refill for metformin sent' });
    const up = await call(
      staff.ben.token,
      'PUT',
      url(c.thumbsUp, { conversationId: id, userId: staff.ben.id }),
      { parent_id: m.id },
    );
    expect(up.json().data.thumbs_up).toEqual([staff.ben.id]);
    const down = await call(
      staff.ben.token,
      'PUT',
      url(c.thumbsUp, { conversationId: id, userId: staff.ben.id }),
      { parent_id: m.id },
    );
    expect(down.json().data.thumbs_up).toEqual([]);
    const found = await call(staff.ben.token, 'GET', url(c.search, { id }, { query: 'METFORMIN' }));
    expect(found.json().data.map((x: { id: number }) => x.id)).toEqual([m.id]);
    expect((await call(staff.ben.token, 'GET', url(c.search, { id }, { query: '%' }))).json().data).toEqual(
      [],
    );
    const empty = await call(staff.ann.token, 'POST', url(c.post, { id }), { body: '   ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.body).toEqual(['Write a message or attach a file.']);
    const badParent = await call(staff.ann.token, 'POST', url(c.post, { id }), {
      body: 'x',
      parent_id: 'abc',
    });
    expect(badParent.statusCode).toBe(422);
  });
});

describe('attachments', () => {
  it('streams a PDF to storage, serves it to members as an attachment, and lists it', async () => {
    const id = await conversationFor(staff.ann.token, 'Files', [staff.ben.id]);
    const res = await app.inject({
      method: 'POST',
      url: url(c.post, { id }),
      headers: bearer(staff.ann.token),
      payload: form({ body: 'Discharge letter' }, [{ name: 'letter.pdf', bytes: PDF }]),
    });
    expect(res.statusCode, res.body).toBe(201);
    const [file] = res.json().data.attachments;
    expect(file).toMatchObject({
      file_name: 'letter.pdf',
      content_type: 'application/pdf',
      size: PDF.length,
      phi: false,
    });
    const got = await app.inject({ method: 'GET', url: file.url, headers: bearer(staff.ben.token) });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-disposition']).toBe("attachment; filename*=UTF-8''letter.pdf");
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.rawPayload.equals(PDF)).toBe(true);
    expect(
      (await app.inject({ method: 'GET', url: file.url, headers: bearer(staff.cat.token) })).statusCode,
    ).toBe(404);
    expect((await app.inject({ method: 'GET', url: file.url })).statusCode).toBe(401);
    const files = await call(staff.ben.token, 'GET', url(c.files, { id }));
    expect(files.json().data.map((f: { id: number }) => f.id)).toEqual([file.id]);
  });

  it('hides a PHI attachment from the others until its sender confirms it', async () => {
    const id = await conversationFor(staff.ann.token, 'PHI', [staff.ben.id]);
    const res = await app.inject({
      method: 'POST',
      url: url(c.post, { id }),
      headers: bearer(staff.ann.token),
      payload: form({ body: 'Lab results', phi: '1' }, [{ name: 'labs.pdf', bytes: PDF }]),
    });
    expect(res.statusCode, res.body).toBe(201);
    const message = res.json().data;
    expect(message.attachments[0]).toMatchObject({ phi: true, confirmed: false });
    const seen = (await call(staff.ben.token, 'GET', url(c.get, { id }))).json().messages[0];
    expect(seen).toMatchObject({ attachments: [], pending_attachments: 1 });
    expect((await call(staff.ben.token, 'GET', url(c.files, { id }))).json().data).toEqual([]);
    const direct = await app.inject({
      method: 'GET',
      url: message.attachments[0].url,
      headers: bearer(staff.ben.token),
    });
    expect(direct.statusCode).toBe(404);
    // Only the sender confirms.
    const byOther = await call(staff.ben.token, 'POST', url(c.confirmPhi, { id }), {
      message_id: message.id,
    });
    expect(byOther.statusCode).toBe(422);
    const confirmed = await call(staff.ann.token, 'POST', url(c.confirmPhi, { id }), {
      message_id: message.id,
    });
    expect(confirmed.json()).toMatchObject({ confirmed: 1 });
    const after = (await call(staff.ben.token, 'GET', url(c.get, { id }))).json().messages[0];
    expect(after).toMatchObject({
      pending_attachments: 0,
      attachments: [expect.objectContaining({ confirmed: true })],
    });
  });

  it('judges the type from the content and refuses what is not allowed, too large or too many', async () => {
    const id = await conversationFor(staff.ann.token, 'Uploads', []);
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 1)]);
    const disguised = await app.inject({
      method: 'POST',
      url: url(c.post, { id }),
      headers: bearer(staff.ann.token),
      payload: form({ body: 'x' }, [{ name: 'report.pdf', bytes: exe, type: 'application/pdf' }]),
    });
    expect(disguised.statusCode).toBe(422);
    expect(disguised.json().errors.files).toEqual(['This type of file cannot be shared.']);
    const text = await app.inject({
      method: 'POST',
      url: url(c.post, { id }),
      headers: bearer(staff.ann.token),
      payload: form({}, [{ name: 'notes.csv', bytes: Buffer.from('name,value\nbp,120\n') }]),
    });
    expect(text.statusCode, text.body).toBe(201);
    expect(text.json().data.attachments[0].content_type).toBe('text/csv');
    const big = await app.inject({
      method: 'POST',
      url: url(c.post, { id }),
      headers: bearer(staff.ann.token),
      payload: form({ body: 'big' }, [
        { name: 'big.pdf', bytes: Buffer.concat([PDF, Buffer.alloc(1_100_000, 32)]) },
      ]),
    });
    expect(big.statusCode).toBe(413);
    const many = await app.inject({
      method: 'POST',
      url: url(c.post, { id }),
      headers: bearer(staff.ann.token),
      payload: form(
        { body: 'many' },
        Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.pdf`, bytes: PDF })),
      ),
    });
    expect(many.statusCode).toBe(422);
    // Nothing half-written: the refused messages left no message behind.
    const messages = (await call(staff.ann.token, 'GET', url(c.get, { id }))).json().messages;
    expect(messages).toHaveLength(1);
    expect((await call(staff.ann.token, 'GET', url(c.files, { id }))).json().data).toHaveLength(1);
  });
});

describe('members and personal settings', () => {
  it('pins first, then by name; archive hides; mute and roles', async () => {
    const zed = await conversationFor(staff.ann.token, 'Zed team', [staff.ben.id]);
    const alpha = await conversationFor(staff.ann.token, 'Alpha team', [staff.ben.id]);
    const order = async () =>
      (await call(staff.ben.token, 'GET', url(c.list, undefined, { program_id: String(program.a) })))
        .json()
        .data.map((x: { id: number }) => x.id);
    expect((await order()).indexOf(alpha)).toBeLessThan((await order()).indexOf(zed));
    const pin = await call(staff.ben.token, 'PUT', url(c.updateUser, { id: zed, userId: staff.ben.id }), {
      is_pinned: true,
    });
    expect(pin.json().data.is_pinned).toBe(true);
    expect((await order())[0]).toBe(zed);
    await call(staff.ben.token, 'PUT', url(c.updateUser, { id: alpha, userId: staff.ben.id }), {
      is_archived: true,
    });
    expect(await order()).not.toContain(alpha);
    const archived = await call(staff.ben.token, 'GET', url(c.list, undefined, { archived: '1' }));
    expect(archived.json().data.map((x: { id: number }) => x.id)).toEqual([alpha]);
    // Personal settings of someone else: refused; roles: owners only.
    expect(
      (
        await call(staff.ben.token, 'PUT', url(c.updateUser, { id: zed, userId: staff.ann.id }), {
          is_pinned: true,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await call(staff.ben.token, 'PUT', url(c.updateUser, { id: zed, userId: staff.ben.id }), {
          chat_role: 'owner',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await call(staff.ben.token, 'PUT', url(c.rename, { id: zed }), { name: 'Mine' })).statusCode,
    ).toBe(403);
    const renamed = await call(staff.ann.token, 'PUT', url(c.rename, { id: zed }), { name: 'Zulu team' });
    expect(renamed.json().data.name).toBe('Zulu team');

    const muted = await call(staff.ben.token, 'POST', url(c.mute, { id: zed, userId: staff.ben.id }), {
      muteValue: 60,
    });
    expect(muted.json().data).toMatchObject({ muted: true });
    await post(staff.ann.token, zed, { body: 'quiet' });
    const forever = await call(staff.ben.token, 'POST', url(c.mute, { id: zed, userId: staff.ben.id }), {
      muteValue: -1,
    });
    expect(forever.json().data).toMatchObject({ muted: true, muted_until: 'infinity' });
    const unmuted = await call(staff.ben.token, 'POST', url(c.mute, { id: zed, userId: staff.ben.id }), {
      muteValue: 0,
    });
    expect(unmuted.json().data).toMatchObject({ muted: false, muted_until: null });
    expect(
      (await call(staff.ben.token, 'POST', url(c.mute, { id: zed, userId: staff.ben.id }), { muteValue: -5 }))
        .statusCode,
    ).toBe(422);
  });

  it('adds staff of the program, lets members leave, and keeps an owner while others remain', async () => {
    const id = await conversationFor(staff.ann.token, 'Huddle', [staff.ben.id]);
    const added = await call(staff.ben.token, 'POST', url(c.addUsers, { id }), { users: [staff.cat.id] });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().data.users).toHaveLength(3);
    expect(
      (await call(staff.ben.token, 'POST', url(c.addUsers, { id }), { users: [staff.out.id] })).statusCode,
    ).toBe(422);
    expect((await call(staff.ben.token, 'POST', url(c.addUsers, { id }), { users: [] })).statusCode).toBe(
      422,
    );
    const mentionable = await call(
      staff.cat.token,
      'GET',
      url(c.mentionable, undefined, { conversation_id: String(id), search: 'be' }),
    );
    expect(mentionable.json().data.map((x: { id: number }) => x.id)).toEqual([staff.ben.id]);
    expect(
      (await call(staff.out.token, 'GET', url(c.mentionable, undefined, { program_id: String(program.a) })))
        .statusCode,
    ).toBe(404);
    // Ben may not remove Cat (not an owner); the last owner cannot leave while others remain.
    expect(
      (await call(staff.ben.token, 'DELETE', url(c.removeUser, { id, userId: staff.cat.id }))).statusCode,
    ).toBe(403);
    expect(
      (
        await call(
          staff.ann.token,
          'DELETE',
          url(c.removeUser, { id, userId: staff.ann.id }, { isLeaving: '1' }),
        )
      ).statusCode,
    ).toBe(409);
    const left = await call(
      staff.cat.token,
      'DELETE',
      url(c.removeUser, { id, userId: staff.cat.id }, { isLeaving: '1' }),
    );
    expect(left.json()).toEqual({ message: 'You left the conversation' });
    expect((await call(staff.cat.token, 'GET', url(c.get, { id }))).statusCode).toBe(404);
    const removed = await call(staff.ann.token, 'DELETE', url(c.removeUser, { id, userId: staff.ben.id }));
    expect(removed.json()).toEqual({ message: 'User removed' });
  });
});
