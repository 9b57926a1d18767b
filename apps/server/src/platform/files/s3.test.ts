import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { messengerContract as m, routeUrl } from '@caredeck/contracts';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACTORY_PASSWORD } from '../../modules/identity/identity.factories';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { S3_PART_BYTES, s3Storage } from './s3';
import { newKey } from './storage';

// The S3 adapter against an S3-compatible server on this machine (s3rver: the S3 HTTP API with multipart
// uploads over a real socket; it checks the access key, not the Signature V4 itself), never a mock.
let server: S3rver;
let directory: string;
let url = '';
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', region: 'us-east-1' };

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** A deterministic stream of `size` bytes, in odd-sized chunks (not aligned to the part size). */
function bytes(size: number): { stream: Readable; sha: string } {
  const data = Buffer.alloc(size);
  for (let i = 0; i < size; i++) data[i] = (i * 31 + 7) % 251;
  const chunks: Buffer[] = [];
  for (let at = 0; at < size; at += 77_777) chunks.push(data.subarray(at, at + 77_777));
  return { stream: Readable.from(chunks), sha: createHash('sha256').update(data).digest('hex') };
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'caredeck-s3-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'caredeck-files', configs: [] }],
  });
  const { port } = await server.run();
  url = `http://127.0.0.1:${port}/caredeck-files`;
});

afterAll(async () => {
  await server?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('S3 storage', () => {
  it('stores a small file in one request and a 12 MB one in parts, and reads both back whole', async () => {
    const storage = s3Storage({ url, ...credentials });
    const small = newKey('test');
    await storage.put(small, Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    const got = await storage.open(small);
    expect(got.size).toBe(11);
    expect((await readAll(got.stream)).toString()).toBe('hello world');

    const big = newKey('test');
    const size = 2 * S3_PART_BYTES + 1234;
    const source = bytes(size);
    await storage.put(big, source.stream);
    const back = await storage.open(big);
    expect(back.size).toBe(size);
    expect(
      createHash('sha256')
        .update(await readAll(back.stream))
        .digest('hex'),
    ).toBe(source.sha);

    await storage.remove(big);
    await expect(storage.open(big)).rejects.toMatchObject({ status: 404 });
    await storage.remove(big); // removing twice is fine
  });

  it('fails on an unknown access key, and stores nothing', async () => {
    const storage = s3Storage({ url, ...credentials, accessKeyId: 'NOBODY' });
    const key = newKey('test');
    await expect(storage.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow(/answered 403/);
    await expect(s3Storage({ url, ...credentials }).open(key)).rejects.toMatchObject({ status: 404 });
  });

  it('serves messenger attachments from the object store when S3_URL is set', async () => {
    const { app, db } = await testApp({
      S3_URL: url,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
    const g = given(db);
    const programId = (await g.program()).id;
    const make = async () => {
      const admin = await g.admin({
        hipaaConsented: true,
        programRoles: [{ programId, role: 'care_coordinator' }],
      });
      return { id: admin.id, token: (await signIn(app, admin.email, FACTORY_PASSWORD)).token };
    };
    const ann = await make();
    const ben = await make();
    const created = await app.inject({
      method: 'POST',
      url: routeUrl(m.create),
      headers: bearer(ann.token),
      payload: { program_id: programId, name: 'Files in S3', users: [ben.id] },
    });
    const id = created.json().data.id as number;
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    const form = new FormData();
    form.append('body', 'Discharge letter');
    form.append('files', new Blob([pdf]), 'letter.pdf');
    const posted = await app.inject({
      method: 'POST',
      url: routeUrl(m.post, { id }),
      headers: bearer(ann.token),
      payload: form,
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const file = posted.json().data.attachments[0];
    const got = await app.inject({ method: 'GET', url: file.url, headers: bearer(ben.token) });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(pdf)).toBe(true);
    expect(got.headers['content-disposition']).toBe("attachment; filename*=UTF-8''letter.pdf");
    await app.close();
  });
});
