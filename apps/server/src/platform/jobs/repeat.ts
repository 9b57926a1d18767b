import type { FastifyBaseLogger } from 'fastify';
import { type Config, runs } from '../../config';

/**
 * Runs a module's background job every `ms` (0: never; tests run it by hand) in processes with the worker
 * role (ADR 061), one run at a time: a run that
 * outlasts its interval skips the ticks it overlaps instead of queueing them (a queue of runs would grow
 * without bound on a loaded node). A failure is logged by the job's name and error type only (never its
 * data, which may hold PHI); closing the app waits for the run in progress.
 */
export function repeatJob(
  name: string,
  ms: number,
  job: () => Promise<unknown>,
  deps: {
    log: FastifyBaseLogger;
    onClose: (fn: () => Promise<void>) => void;
    config: Pick<Config, 'ROLE'>;
  },
): void {
  if (ms <= 0 || !runs(deps.config, 'worker')) return;
  const runner = singleFlight(job, (err) =>
    deps.log.warn({ job: name, err: { type: err.name } }, 'job failed'),
  );
  const timer = setInterval(runner.tick, ms);
  timer.unref();
  deps.onClose(async () => {
    clearInterval(timer);
    await runner.idle();
  });
}

/** A job started by ticks, never twice at once: a tick while it runs is dropped. */
export function singleFlight(
  job: () => Promise<unknown>,
  onError: (err: Error) => void,
): { tick: () => void; idle: () => Promise<void>; running: () => boolean } {
  let current: Promise<void> | null = null;
  return {
    tick() {
      if (current) return;
      current = job()
        .then(
          () => undefined,
          (err: Error) => onError(err),
        )
        .finally(() => {
          current = null;
        });
    },
    idle: async () => {
      await current;
    },
    running: () => current !== null,
  };
}
