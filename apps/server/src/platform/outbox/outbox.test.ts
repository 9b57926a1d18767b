import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../config';
import { testDatabase } from '../../test/harness';
import type { Database } from '../db/client';
import { freePort } from '../db/embedded';
import { deliverPendingEmails, enqueueEmail, fileTransport, smtpTransport } from './outbox';

type Received = { from: string; to: string[]; data: string };
const received: Received[] = [];
let server: SMTPServer;
let port: number;
let db: Database;

beforeAll(async () => {
  ({ db } = await testDatabase());
  port = await freePort();
  // A real SMTP server on loopback: what nodemailer sends is what a mail relay would receive.
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => {
        data += chunk.toString();
      });
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('e-mail outbox over SMTP', () => {
  it('delivers queued mail through SMTP_URL, marks it sent and blanks the body', async () => {
    await enqueueEmail(db, {
      to: 'nurse@clinic.example',
      subject: 'Your CareDeck password reset code',
      text: 'Your password reset code is 123456.',
      template: 'reset_password',
    });
    const from = testConfig().MAIL_FROM;
    const sent = await deliverPendingEmails(db, smtpTransport(`smtp://127.0.0.1:${port}`), from);
    expect(sent).toBe(1);
    expect(received).toHaveLength(1);
    expect(received[0]?.to).toEqual(['nurse@clinic.example']);
    expect(received[0]?.from).toBe('no-reply@caredeck.local');
    expect(received[0]?.data).toContain('Subject: Your CareDeck password reset code');
    expect(received[0]?.data).toContain('123456');
    const row = await db.execute<{ status: string; body_text: string; sent_at: string | null }>(
      sql`SELECT status, body_text, sent_at FROM email_outbox`,
    );
    expect(row.rows[0]).toMatchObject({ status: 'sent', body_text: '' });
    expect(row.rows[0]?.sent_at).not.toBeNull();
  });

  it('keeps mail pending when the relay is down, and gives up after five attempts', async () => {
    await db.execute(sql`DELETE FROM email_outbox`);
    await enqueueEmail(db, { to: 'a@clinic.example', subject: 's', text: 't', template: 'x' });
    const down = smtpTransport(`smtp://127.0.0.1:${await freePort()}`);
    for (let i = 0; i < 4; i++) await deliverPendingEmails(db, down, 'CareDeck <no-reply@caredeck.local>');
    const pending = await db.execute<{ status: string; attempts: number }>(
      sql`SELECT status, attempts FROM email_outbox`,
    );
    expect(pending.rows[0]).toEqual({ status: 'pending', attempts: 4 });
    await deliverPendingEmails(db, down, 'CareDeck <no-reply@caredeck.local>');
    const failed = await db.execute<{ status: string }>(sql`SELECT status FROM email_outbox`);
    expect(failed.rows[0]?.status).toBe('failed');
  });
});

describe('e-mail outbox without SMTP_URL (file transport)', () => {
  it('writes each message to its own file readable only by the server user, and logs no address, subject or text', async () => {
    await db.execute(sql`DELETE FROM email_outbox`);
    await enqueueEmail(db, {
      to: 'patient.jones@home.example',
      subject: 'Your CareDeck sign-in code for Alice Jones',
      text: 'Hello Alice Jones, your temporary password Xy7-secret-42 and code is 654321.',
      template: 'invitation',
    });
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'caredeck-mail-')), 'mail');
    const lines: string[] = [];
    const log = pino(
      { level: 'trace' },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    expect(await deliverPendingEmails(db, fileTransport(dir, log), 'no-reply@caredeck.local')).toBe(1);

    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    const file = path.join(dir, files[0] as string);
    const mail = JSON.parse(await readFile(file, 'utf8'));
    expect(mail).toMatchObject({
      to: 'patient.jones@home.example',
      subject: 'Your CareDeck sign-in code for Alice Jones',
      template: 'invitation',
    });
    expect(mail.text).toContain('654321');
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const written = lines.join('');
    expect(written).toContain('invitation');
    for (const secret of ['patient.jones', 'Alice', 'Jones', 'Xy7-secret-42', '654321', 'sign-in code'])
      expect(written).not.toContain(secret);
    const row = await db.execute<{ status: string }>(sql`SELECT status FROM email_outbox`);
    expect(row.rows[0]?.status).toBe('sent');
  });
});
