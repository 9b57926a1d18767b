import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../config';
import { testDatabase } from '../../test/harness';
import type { Database } from '../db/client';
import { freePort } from '../db/embedded';
import { deliverPendingEmails, enqueueEmail, smtpTransport } from './outbox';

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
