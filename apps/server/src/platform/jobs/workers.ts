import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../db/client';
import { deliverPendingEmails, fileTransport, type MailTransport, smtpTransport } from '../outbox/outbox';
import { pruneExpired } from './housekeeping';

export type Workers = { stop(): Promise<void> };

/**
 * Background work of this issue: outbox delivery (every 2 s) and housekeeping (hourly). Each tick is one short
 * transaction with SKIP LOCKED, so any number of processes may run workers side by side.
 */
export function startWorkers(deps: {
  db: Database;
  config: Config;
  log: FastifyBaseLogger;
  transport?: MailTransport;
}): Workers {
  const { db, config, log } = deps;
  const transport =
    deps.transport ??
    (config.SMTP_URL
      ? smtpTransport(config.SMTP_URL)
      : fileTransport(path.join(config.DATA_DIR, 'mail'), log));
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;

  const tick = (name: string, work: () => Promise<unknown>) => () => {
    if (stopped) return;
    running = running
      .then(work)
      .catch((err: Error) => log.warn({ job: name, err: { type: err.name } }, 'job failed'));
  };
  const mail = setInterval(
    tick('outbox', () => deliverPendingEmails(db, transport, config.MAIL_FROM)),
    2_000,
  );
  const prune = setInterval(
    tick('prune', () => pruneExpired(db)),
    60 * 60_000,
  );
  mail.unref();
  prune.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(mail);
      clearInterval(prune);
      await running;
    },
  };
}
