import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../platform/db/client';
import { type ClaimedProgramming, claimPendingProgramming, releaseClaims } from '../delivery.queries';
import { commandsTopic } from './topics';

/** The command a claimed row becomes on `devices/{serial}/commands` (docs/devices.md). */
export function programmingCommand(item: ClaimedProgramming): Record<string, unknown> {
  return item.kind === 'schedule'
    ? {
        id: 0,
        command: 'set_schedule',
        arg: { times: item.times, weekdays: item.weekdays, schedule_id: item.id },
      }
    : { id: 0, command: 'set_goal', arg: { type: item.type, target: item.target } };
}

/**
 * Sends devices the programming stored for them (schedules, goals) once they can receive it (ADR 050):
 * right after it is stored if the device is connected, else when it next connects. Connections gather for
 * `maxWaitMs` (a broker restart brings thousands at once) and their pending rows are claimed in one
 * statement, one batch at a time; a claimed row is published at QoS 1 and stays `sent`, or goes back to
 * `pending` if the broker refused it. Nothing here throws into the broker's event handlers: a failure is
 * logged (counts and error codes, never a schedule or a serial) and the rows wait for the next connection.
 */
export function createProgrammingDelivery(deps: {
  db: Database;
  log: FastifyBaseLogger;
  publish: (topic: string, payload: string) => Promise<void>;
  maxWaitMs: number;
}) {
  const { db, log } = deps;
  let waiting = new Set<number>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let closed = false;
  const stats = { delivered: 0, failed: 0 };

  const failure = (err: unknown, what: string, devices: number) =>
    log.error(
      { err: { message: (err as Error).message, code: (err as { code?: string }).code }, devices },
      what,
    );

  /** Claims and publishes what these devices are owed; resolves with the rows sent, never rejects. */
  async function deliver(deviceIds: number[]): Promise<ClaimedProgramming[]> {
    if (deviceIds.length === 0 || closed) return [];
    let claimed: ClaimedProgramming[];
    try {
      claimed = await claimPendingProgramming(db, deviceIds);
    } catch (err) {
      failure(err, 'claiming pending device programming failed', deviceIds.length);
      return [];
    }
    if (claimed.length === 0) return [];
    const results = await Promise.allSettled(
      claimed.map((item) =>
        deps.publish(commandsTopic(item.serial), JSON.stringify(programmingCommand(item))),
      ),
    );
    const lost = claimed.filter((_, i) => results[i]!.status === 'rejected');
    stats.delivered += claimed.length - lost.length;
    if (lost.length > 0) {
      stats.failed += lost.length;
      const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      failure(rejected.reason, 'sending device programming failed; kept pending', lost.length);
      try {
        await releaseClaims(db, {
          schedules: lost.filter((i) => i.kind === 'schedule').map((i) => i.id),
          goals: lost.filter((i) => i.kind === 'goal').map((i) => i.id),
        });
      } catch (err) {
        failure(err, 'releasing unsent device programming failed', lost.length);
      }
    }
    return claimed.filter((_, i) => results[i]!.status === 'fulfilled');
  }

  const schedule = () => {
    if (timer || running || closed || waiting.size === 0) return;
    timer = setTimeout(() => {
      timer = null;
      const batch = [...waiting];
      waiting = new Set();
      running = deliver(batch).finally(() => {
        running = null;
        schedule();
      });
    }, deps.maxWaitMs);
  };

  return {
    stats,
    deliver,
    /** These devices just connected (and listen to their commands): send what waits for them, soon. */
    connected(deviceIds: Iterable<number>): void {
      if (closed) return;
      for (const id of deviceIds) waiting.add(id);
      schedule();
    },
    /** Waits for the batch being sent; connections not yet handled keep their rows pending. */
    async close(): Promise<void> {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      waiting = new Set();
      await running;
    },
  };
}

export type ProgrammingDelivery = ReturnType<typeof createProgrammingDelivery>;
