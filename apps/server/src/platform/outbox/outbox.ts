import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Database, Queryable } from '../db/client';

export type Email = { to: string; subject: string; text: string; template: string };

/** Queues an e-mail inside the caller's transaction; delivery happens after commit. */
export async function enqueueEmail(db: Queryable, email: Email): Promise<void> {
  await db.execute(sql`
    INSERT INTO email_outbox (to_address, subject, body_text, template)
    VALUES (${email.to}, ${email.subject}, ${email.text}, ${email.template})`);
}

export type MailTransport = { send(email: Email, from: string, id?: number): Promise<void> };

/**
 * Development transport, chosen only when SMTP_URL is unset: each message is written whole to its own file,
 * `<dir>/<id>.json` (directory 0700, file 0600: readable only by the server's user), and the log says only
 * that a message of that kind was written, never its address, subject or text (they hold PHI, codes and
 * temporary passwords).
 */
export function fileTransport(dir: string, log: FastifyBaseLogger): MailTransport {
  let seq = 0;
  return {
    async send(email, from, id) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await chmod(dir, 0o700);
      // The outbox row's id when there is one; names sort in the order written either way.
      const name = `${String(Date.now()).padStart(15, '0')}-${id ?? `local${++seq}`}`;
      const file = path.join(dir, `${name}.json`);
      const message = {
        id: id ?? null,
        from,
        to: email.to,
        subject: email.subject,
        template: email.template,
        text: email.text,
        written_at: new Date().toISOString(),
      };
      await writeFile(file, `${JSON.stringify(message, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      log.info(
        { mail: { template: email.template, id: id ?? null, file: `${name}.json` } },
        'e-mail written (file transport)',
      );
    },
  };
}

export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    async send(email, from) {
      await transporter.sendMail({ from, to: email.to, subject: email.subject, text: email.text });
    },
  };
}

/** Sends up to `batch` pending e-mails (a sent body is blanked: it may hold a code); rows are locked so several workers never send one twice. */
export async function deliverPendingEmails(
  db: Database,
  transport: MailTransport,
  from: string,
  batch = 20,
): Promise<number> {
  return db.transaction(async (tx) => {
    const res = await tx.execute<{
      id: number;
      to_address: string;
      subject: string;
      body_text: string;
      template: string;
    }>(sql`
      SELECT id, to_address, subject, body_text, template FROM email_outbox
      WHERE status = 'pending' ORDER BY created_at LIMIT ${batch} FOR UPDATE SKIP LOCKED`);
    for (const row of res.rows) {
      try {
        await transport.send(
          { to: row.to_address, subject: row.subject, text: row.body_text, template: row.template },
          from,
          row.id,
        );
        await tx.execute(
          sql`UPDATE email_outbox SET status = 'sent', sent_at = now(), attempts = attempts + 1, body_text = '' WHERE id = ${row.id}`,
        );
      } catch (err) {
        await tx.execute(sql`
          UPDATE email_outbox SET attempts = attempts + 1, last_error = ${String((err as Error).message).slice(0, 500)},
            status = CASE WHEN attempts + 1 >= 5 THEN 'failed' ELSE 'pending' END
          WHERE id = ${row.id}`);
      }
    }
    return res.rows.length;
  });
}
