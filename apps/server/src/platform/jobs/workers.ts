import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../db/client';
import { deliverPendingEmails, fileTransport, type MailTransport, smtpTransport } from '../outbox/outbox';
import { pruneExpired } from './housekeeping';
import { singleFlight } from './repeat';

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
  let stopped = false;
  const flight = (name: string, work: () => Promise<unknown>) =>
    singleFlight(
      () => (stopped ? Promise.resolve() : work()),
      (err) => log.warn({ job: name, err: { type: err.name } }, 'job failed'),
    );
  const outbox = flight('outbox', () => deliverPendingEmails(db, transport, config.MAIL_FROM));
  const housekeeping = flight('prune', () => pruneExpired(db));
  const mail = setInterval(outbox.tick, 2_000);
  const prune = setInterval(housekeeping.tick, 60 * 60_000);
  mail.unref();
  prune.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(mail);
      clearInterval(prune);
      await Promise.all([outbox.idle(), housekeeping.idle()]);
    },
  };
}
