import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_MESSAGES, WEBHOOK_TOLERANCE_SECONDS } from '@caredeck/contracts';
import type { Config } from '../../config';
import type { Database } from '../../platform/db/client';
import { AppError } from '../../platform/http/errors';
import { deliverySeen, recordDelivery, vendorDevices } from './devices.queries';
import { parseEventObject } from './gateway/events';
import type { Ingestor } from './gateway/ingestor';

/** The signature a vendor sends: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export function signWebhook(
  secret: string,
  rawBody: string | Buffer,
  at = Math.floor(Date.now() / 1000),
): string {
  const mac = createHmac('sha256', secret).update(`${at}.`).update(rawBody).digest('hex');
  return `t=${at},v1=${mac}`;
}

function verify(secret: string, header: string | undefined, rawBody: Buffer, now: number): void {
  const parts = Object.fromEntries(
    (header ?? '').split(',').map((p) => p.trim().split('=') as [string, string]),
  );
  const at = Number(parts.t);
  if (!/^[0-9]{1,12}$/.test(parts.t ?? '') || !/^[0-9a-f]{64}$/.test(parts.v1 ?? ''))
    throw AppError.unauthenticated(WEBHOOK_MESSAGES.signature);
  const expected = Buffer.from(signWebhook(secret, rawBody, at).split('v1=')[1]!, 'hex');
  if (!timingSafeEqual(expected, Buffer.from(parts.v1!, 'hex')))
    throw AppError.unauthenticated(WEBHOOK_MESSAGES.signature);
  // Checked after the MAC, so the answer says nothing about timing to whoever cannot sign.
  if (Math.abs(now / 1000 - at) > WEBHOOK_TOLERANCE_SECONDS)
    throw AppError.unauthenticated(WEBHOOK_MESSAGES.stale);
}

/**
 * Vendor clouds deliver device events by HTTPS webhook. A delivery is accepted only with a valid HMAC
 * signature made within 5 minutes (a captured request cannot be replayed later), each event goes through
 * the same ingestor as MQTT (same validation, same idempotency by device and seq), and the answer is sent
 * only once every accepted event is committed. A delivery id already processed is answered as a duplicate.
 */
export function createWebhooksService(deps: {
  db: Database;
  config: Config;
  ingestor: Ingestor;
  now?: () => number;
}) {
  const { db, config, ingestor } = deps;
  const now = deps.now ?? Date.now;
  return {
    async deliver(input: {
      vendor: string;
      signature: string | undefined;
      rawBody: Buffer;
      body: { id: string; events: ({ device: string } & Record<string, unknown>)[] };
    }) {
      const vendor = input.vendor.toLowerCase();
      const secret = config.WEBHOOK_SECRETS[vendor];
      if (!secret) throw AppError.notFound(WEBHOOK_MESSAGES.unknownVendor);
      const at = now();
      verify(secret, input.signature, input.rawBody, at);
      if (await deliverySeen(db, vendor, input.body.id))
        return { accepted: 0, duplicate: true, rejected: [] };
      const devices = await vendorDevices(db, vendor, [...new Set(input.body.events.map((e) => e.device))]);
      const rejected: { index: number; reason: string }[] = [];
      const writes: Promise<void>[] = [];
      for (const [index, raw] of input.body.events.entries()) {
        const deviceId = devices.get(raw.device);
        if (deviceId === undefined) {
          rejected.push({ index, reason: 'unknown_device' });
          continue;
        }
        const parsed = parseEventObject(raw, at);
        if (!parsed.ok) {
          rejected.push({ index, reason: parsed.reason });
          continue;
        }
        const e = parsed.event;
        writes.push(
          ingestor.submitAsync({ deviceId, seq: e.seq, type: e.type, at: e.at, payload: e.payload }),
        );
      }
      // 2xx only after the commit: a failed batch answers 500 and the vendor delivers again.
      await Promise.all(writes);
      await recordDelivery(db, vendor, input.body.id, writes.length);
      return { accepted: writes.length, duplicate: false, rejected };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
