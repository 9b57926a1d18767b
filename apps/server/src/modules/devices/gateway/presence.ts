import type pg from 'pg';
import { applyPresence } from '../ingest.queries';

/**
 * Device presence behind an external broker (ADR 049, docs/devices.md "Presence"): a device connects with
 * a Last Will on `devices/{serial}/status` (offline, QoS 1, retained), publishes online (retained) right
 * after CONNACK and offline before a clean DISCONNECT; the broker publishes the will when the device
 * vanishes (keepalive expiry, a dropped socket). The gateway turns those messages into the device's
 * `connected` state.
 */

/** A status payload: `online` / `offline` (text, any case), or JSON `{"online": true|false, …}`. */
export type StatusParse = { ok: true; online: boolean } | { ok: false; cleared: boolean };

const MAX_STATUS_BYTES = 256;

export function parseStatus(payload: Buffer): StatusParse {
  // An empty retained message deletes the retained status (an operator's clean-up): nothing to apply.
  if (payload.length === 0) return { ok: false, cleared: true };
  if (payload.length > MAX_STATUS_BYTES) return { ok: false, cleared: false };
  const text = payload.toString('utf8').trim();
  const word = text.toLowerCase();
  if (word === 'online' || word === 'offline') return { ok: true, online: word === 'online' };
  if (!text.startsWith('{') && !text.startsWith('"')) return { ok: false, cleared: false };
  try {
    const body = JSON.parse(text) as unknown;
    if (body === 'online' || body === 'offline') return { ok: true, online: body === 'online' };
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const online = (body as { online?: unknown }).online;
      if (typeof online === 'boolean') return { ok: true, online };
    }
  } catch {
    // falls through: malformed
  }
  return { ok: false, cleared: false };
}

type Pending = { connected: boolean; done: ((err: Error | null) => void)[] };

/**
 * Writes reported connection states in batches (one statement per batch: at start every gateway receives
 * the retained status of every device at once), one batch at a time so a device's states are applied in
 * the order the broker delivered them; within a batch the latest state of a serial wins. `done` is called
 * after the commit (the gateway acknowledges the message to the broker then) or with the error.
 */
export function createPresenceWriter(options: {
  pool: pg.Pool;
  maxWaitMs?: number;
  /**
   * After each committed batch: how many devices changed state, how many serials were unknown, and the
   * devices this batch turned connected.
   */
  onApplied?: (result: { changed: number; unknown: number; online: number[] }) => void;
}) {
  const maxWaitMs = options.maxWaitMs ?? 20;
  let pending = new Map<string, Pending>();
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> | null = null;
  let closed = false;

  const schedule = () => {
    if (timer || writing || closed || pending.size === 0) return;
    timer = setTimeout(() => {
      timer = null;
      writing = flush().finally(() => {
        writing = null;
        schedule();
      });
    }, maxWaitMs);
  };

  async function flush(): Promise<void> {
    const batch = pending;
    pending = new Map();
    const states = [...batch].map(([serial, p]) => ({ serial, connected: p.connected }));
    let error: Error | null = null;
    try {
      const result = await applyPresence(options.pool, states);
      options.onApplied?.(result);
    } catch (err) {
      error = err instanceof Error ? err : new Error(String(err));
    }
    for (const p of batch.values()) for (const done of p.done) done(error);
  }

  return {
    submit(serial: string, connected: boolean, done: (err: Error | null) => void): void {
      if (closed) {
        done(new Error('closed'));
        return;
      }
      const p = pending.get(serial);
      if (p) {
        p.connected = connected;
        p.done.push(done);
      } else pending.set(serial, { connected, done: [done] });
      schedule();
    },
    /** Waits for the batch being written; states not yet written are dropped (not acknowledged: redelivered). */
    async close(): Promise<void> {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await writing;
      const dropped = pending;
      pending = new Map();
      for (const p of dropped.values()) for (const done of p.done) done(new Error('closed'));
    },
  };
}
