import { readdir } from 'node:fs/promises';
import {
  administrationContract,
  externalOrdersContract,
  guestContract,
  messengerContract,
  notesContract,
  pipelinesContract,
  type RouteContract,
  reportsContract,
  routeUrl,
} from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config';
import { FACTORY_PASSWORD } from '../../modules/identity/identity.factories';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import type { Database } from '../db/client';
import type { App } from '../http/types';
import { csvText } from './upload';

// Issue 28 item 3: every upload route judges a file by its content, never by its name. Each route below is
// sent an executable renamed to what it accepts, and a CSV that is not UTF-8; each answers 422 naming its
// file field, and nothing is stored (no file on disk, no audit row: every mutation writes one).

let app: App;
let db: Database;
let config: Config;
let token = '';
let guestToken = '';
const ids = { enterprise: 0, program: 0, patient: 0, pipeline: 0, conversation: 0 };

/** An ELF executable's first bytes (a Linux binary) and a PE one (MZ…PE, a Windows .exe). */
const ELF = Buffer.concat([
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]),
  Buffer.alloc(56),
  Buffer.from('\u0000/lib64/ld-linux-x86-64.so.2\u0000', 'latin1'),
  Buffer.alloc(200, 0x90),
]);
const PE = (() => {
  const b = Buffer.alloc(512);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\u0000\u0000', 0x80, 'latin1');
  b.write('This program cannot be run in DOS mode.', 0x4e, 'latin1');
  return b;
})();
/** A CSV whose second row is Latin-1 (0xE9 is not UTF-8 on its own), past the first 4 kB. */
const LATIN1_CSV = Buffer.concat([
  Buffer.from(`id\n${'1\n'.repeat(3000)}`),
  Buffer.from('Ren\xe9,2\n', 'latin1'),
]);
/** Text up front, a NUL deep inside (past what a head sniff reads). */
const NUL_CSV = Buffer.concat([Buffer.from(`id\n${'2\n'.repeat(3000)}`), Buffer.from([0x31, 0x00, 0x0a])]);

type Part = { field: string; value: string } | { field: string; name: string; bytes: Buffer };

function multipart(parts: Part[]) {
  const boundary = 'caredeckuploads';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head =
      'bytes' in p
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${p.field}"; filename="${p.name}"\r\nContent-Type: ${p.name.endsWith('.csv') ? 'text/csv' : p.name.endsWith('.pdf') ? 'application/pdf' : 'image/png'}\r\n\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${p.field}"\r\n\r\n`;
    chunks.push(Buffer.from(head), 'bytes' in p ? p.bytes : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

type UploadRoute = {
  name: string;
  url: () => string;
  /** The form's file field, as the console sends it (and as the 422 names it). */
  field: string;
  /** The names a disguised executable is given: what the route accepts. */
  names: string[];
  fields?: () => Record<string, string>;
  guest?: boolean;
};

const routes: UploadRoute[] = [
  {
    name: 'pipelines bulk upload',
    url: () => routeUrl(pipelinesContract.bulkUpload, { pipeline_id: ids.pipeline }),
    field: 'file',
    names: ['scan.csv'],
  },
  {
    name: 'external orders import',
    url: () => routeUrl(externalOrdersContract.import),
    field: 'file',
    names: ['orders.csv'],
    fields: () => ({ program_id: String(ids.program) }),
  },
  {
    name: 'note with files',
    url: () => routeUrl(notesContract.create, { id: ids.patient }),
    field: 'files',
    names: ['scan.csv', 'scan.pdf', 'scan.png'],
    fields: () => ({ body: 'See attached' }),
  },
  {
    name: 'image note',
    url: () => routeUrl(notesContract.imageNote, { programId: ids.program, patientId: ids.patient }),
    field: 'files',
    names: ['photo.png'],
    fields: () => ({ body: 'Photo' }),
  },
  {
    name: 'messenger message',
    url: () => routeUrl(messengerContract.post, { id: ids.conversation }),
    field: 'files',
    names: ['scan.csv', 'scan.pdf', 'scan.png'],
    fields: () => ({ body: 'See attached' }),
  },
  {
    name: 'guest message',
    url: () => routeUrl(guestContract.post, { id: ids.conversation }),
    field: 'files',
    names: ['scan.csv', 'scan.pdf', 'scan.png'],
    fields: () => ({ body: 'From the guest' }),
    guest: true,
  },
  {
    name: 'SFTP file',
    url: () => routeUrl(reportsContract.sftpFile, { enterpriseId: ids.enterprise }),
    field: 'file',
    names: ['claims.csv', 'claims.pdf'],
    fields: () => ({ report_destination_id: '1' }),
  },
];

async function auditRows() {
  const res = await db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM audit_events`);
  return Number(res.rows[0]!.n);
}
async function storedFiles(): Promise<number> {
  const walk = async (dir: string): Promise<number> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    let n = 0;
    for (const e of entries) n += e.isDirectory() ? await walk(`${dir}/${e.name}`) : 1;
    return n;
  };
  return walk(config.FILES_DIR!);
}

async function upload(route: UploadRoute, file: { name: string; bytes: Buffer }) {
  const { payload, type } = multipart([
    ...Object.entries(route.fields?.() ?? {}).map(([field, value]) => ({ field, value })),
    { field: route.field, ...file },
  ]);
  return app.inject({
    method: 'POST',
    url: route.url(),
    payload,
    headers: {
      ...(route.guest ? { authorization: `Guest ${guestToken}` } : bearer(token)),
      'content-type': type,
    },
  });
}

beforeAll(async () => {
  ({ app, db, config } = await testApp());
  const g = given(db);
  ids.enterprise = (await g.enterprise()).id;
  ids.program = (await g.program({ enterpriseId: ids.enterprise })).id;
  ids.patient = (await g.patient({ programId: ids.program, phoneNumber: '+14125550177' })).id;
  const admin = await g.admin({
    hipaaConsented: true,
    enterpriseAdminOf: [ids.enterprise],
    programRoles: [{ programId: ids.program, role: 'admin' }],
  });
  token = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  const call = async (contract: RouteContract, params: object, body: unknown, q?: object) => {
    const res = await app.inject({
      method: contract.method as 'POST',
      url: routeUrl(contract, params as Record<string, number>, q as Record<string, string>),
      payload: body as object,
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  };
  ids.pipeline = (
    await call(
      pipelinesContract.create,
      { programId: ids.program },
      { name: 'Uploads', stages: [{ name: 'One' }] },
    )
  ).data.id;
  ids.conversation = (
    await call(messengerContract.create, {}, { program_id: ids.program, name: 'Uploads', users: [] })
  ).data.id;
  await call(guestContract.invite, { programId: ids.program, receiverId: ids.patient }, undefined, {
    conversation_id: String(ids.conversation),
  });
  const sms = await db.execute<{ body: string }>(
    sql`SELECT body FROM sms_messages WHERE patient_id = ${ids.patient} AND kind = 'guest_invite' ORDER BY id DESC LIMIT 1`,
  );
  guestToken = /token=([A-Za-z0-9_.-]+)/.exec(sms.rows[0]!.body)![1]!;
});

describe('uploads are judged by their content (issue 28 item 3)', () => {
  const cases = routes.flatMap((route) => [
    ...route.names.flatMap((name) => [
      { route, what: `an ELF executable named ${name}`, file: { name, bytes: ELF } },
      { route, what: `a PE executable named ${name}`, file: { name, bytes: PE } },
    ]),
    { route, what: 'a CSV that is not UTF-8', file: { name: 'list.csv', bytes: LATIN1_CSV } },
    { route, what: 'a CSV with a NUL byte past its first 4 kB', file: { name: 'list.csv', bytes: NUL_CSV } },
  ]);

  it.each(cases)('$route.name refuses $what with 422 naming the file field, storing nothing', async (c) => {
    const [audits, files] = [await auditRows(), await storedFiles()];
    const res = await upload(c.route, c.file);
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json();
    expect(typeof body.message).toBe('string');
    expect(Object.keys(body.errors)).toEqual([c.route.field]);
    expect(body.errors[c.route.field]).toEqual([expect.any(String)]);
    expect(await auditRows()).toBe(audits);
    expect(await storedFiles()).toBe(files);
  });

  it('still takes a real CSV on the CSV routes (the check is not a blanket refusal)', async () => {
    const ok = await upload(routes[0]!, { name: 'patients.csv', bytes: Buffer.from(`id\n${ids.patient}\n`) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ added: 1 });
  });

  it('refuses a logo sent as a data URL whose bytes are an executable (the JSON upload)', async () => {
    const audits = await auditRows();
    const res = await app.inject({
      method: 'POST',
      url: routeUrl(administrationContract.updateProgram, { programId: ids.program }),
      payload: { image: `data:image/png;base64,${ELF.toString('base64')}` },
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['image']);
    expect(await auditRows()).toBe(audits);
  });

  it('reads CSV text only when every byte is UTF-8 text without controls', async () => {
    expect(await csvText(Buffer.from('id,mrn\r\n1,A-1\r\n'))).toBe('id,mrn\r\n1,A-1\r\n');
    expect(await csvText(Buffer.from('nom\nRené\n'))).toBe('nom\nRené\n');
    expect(await csvText(ELF)).toBeNull();
    expect(await csvText(PE)).toBeNull();
    expect(await csvText(LATIN1_CSV)).toBeNull();
    expect(await csvText(NUL_CSV)).toBeNull();
    expect(await csvText(Buffer.from([0xe2, 0x82]))).toBeNull();
  });
});
