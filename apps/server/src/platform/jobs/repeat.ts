import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs a module's background job every `ms` (0: never; tests run it by hand), one run at a time: a slow run
 * delays the next rather than overlapping it. A failure is logged by the job's name and error type only
 * (never its data, which may hold PHI); closing the app waits for the run in progress.
 */
export function repeatJob(
  name: string,
  ms: number,
  job: () => Promise<unknown>,
  deps: { log: FastifyBaseLogger; onClose: (fn: () => Promise<void>) => void },
): void {
  if (ms <= 0) return;
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(job)
      .catch((err: Error) => deps.log.warn({ job: name, err: { type: err.name } }, 'job failed'));
  }, ms);
  timer.unref();
  deps.onClose(async () => {
    clearInterval(timer);
    await running;
  });
}
