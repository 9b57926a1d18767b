import type pg from 'pg';
import { type BatchEvent, type BatchResult, ingestBatch } from '../ingest.queries';

export type IngestorOptions = {
  pool: pg.Pool;
  /** A batch is written when it holds this many events … */
  maxBatch?: number;
  /** … or when its oldest event has waited this long (milliseconds). */
  maxWaitMs?: number;
  /**
   * Independent writers, each owning the devices with `device id % lanes`: batches of different lanes are
   * written at the same time (PostgreSQL works on both cores), one device's events stay in order, and two
   * writers never lock the same device row.
   */
  lanes?: number;
  /** Called after each commit (live updates); never throws into the ingestor. */
  onCommitted?: (result: BatchResult) => void;
  onError?: (err: unknown) => void;
};

export type IngestStats = {
  submitted: number;
  stored: number;
  duplicates: number;
  batches: number;
  failedBatches: number;
};

type Pending = { event: BatchEvent; done: (err: Error | null) => void };

/**
 * Batches device events into one statement per batch (DESIGN §5) and calls each event's `done` only
 * after the batch's transaction committed: the gateway acknowledges a device (MQTT PUBACK, webhook 2xx)
 * from `done`, so an acknowledged event is a stored event. Each lane writes one batch at a time; events
 * that arrive meanwhile form its next batch. A failed batch fails its events (the device is not
 * acknowledged and resends).
 */
export function createIngestor(options: IngestorOptions) {
  const maxBatch = options.maxBatch ?? 2000;
  const maxWaitMs = options.maxWaitMs ?? 20;
  let closed = false;
  const stats: IngestStats = { submitted: 0, stored: 0, duplicates: 0, batches: 0, failedBatches: 0 };

  async function write(batch: Pending[]): Promise<void> {
    const client = await options.pool.connect();
    let result: BatchResult | null = null;
    let error: Error | null = null;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await client.query('BEGIN');
          result = await ingestBatch(
            client,
            batch.map((p) => p.event),
          );
          await client.query('COMMIT');
          break;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          // Another gateway touching the same devices: retry a deadlock or serialization failure once.
          const code = (err as { code?: string }).code;
          if (attempt === 0 && (code === '40P01' || code === '40001')) continue;
          throw err;
        }
      }
    } catch (err) {
      error = err instanceof Error ? err : new Error(String(err));
      stats.failedBatches++;
      options.onError?.(err);
    } finally {
      client.release(error !== null);
    }
    stats.batches++;
    if (result) {
      stats.stored += result.stored;
      stats.duplicates += batch.length - result.stored;
    }
    for (const p of batch) p.done(error);
    if (result && options.onCommitted) {
      try {
        options.onCommitted(result);
      } catch (err) {
        options.onError?.(err);
      }
    }
  }

  function createLane() {
    let queue: Pending[] = [];
    let timer: NodeJS.Timeout | null = null;
    let writing: Promise<void> | null = null;
    const lane = {
      flush(): void {
        if (timer) {
          clearTimeout(timer);
          timer = null;
        }
        if (writing || queue.length === 0) return;
        const batch = queue.length > maxBatch ? queue.splice(0, maxBatch) : queue;
        if (batch === queue) queue = [];
        writing = write(batch).finally(() => {
          writing = null;
          // Whatever arrived while writing is written next, at once if a batch is full.
          if (queue.length >= maxBatch) lane.flush();
          else if (queue.length > 0 && !timer) timer = setTimeout(lane.flush, 0);
        });
      },
      push(p: Pending): void {
        queue.push(p);
        if (queue.length >= maxBatch) lane.flush();
        else if (!timer) timer = setTimeout(lane.flush, maxWaitMs);
      },
      async drain(): Promise<void> {
        while (queue.length > 0 || writing) {
          lane.flush();
          await writing;
        }
      },
    };
    return lane;
  }
  const lanes = Array.from({ length: Math.max(1, options.lanes ?? 2) }, createLane);

  return {
    stats,
    /** Queues one event; `done` is called after it is committed (or with the error that lost the batch). */
    submit(event: BatchEvent, done: (err: Error | null) => void): void {
      if (closed) {
        done(new Error('The gateway is closing.'));
        return;
      }
      stats.submitted++;
      lanes[event.deviceId % lanes.length]!.push({ event, done });
    },
    submitAsync(event: BatchEvent): Promise<void> {
      return new Promise((resolve, reject) => this.submit(event, (err) => (err ? reject(err) : resolve())));
    },
    /** Writes what is queued and stops taking events. */
    async close(): Promise<void> {
      closed = true;
      await Promise.all(lanes.map((lane) => lane.drain()));
    },
  };
}

export type Ingestor = ReturnType<typeof createIngestor>;
