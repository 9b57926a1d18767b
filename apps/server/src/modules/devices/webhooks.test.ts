import {
  webhooksContract as c,
  routeUrl,
  WEBHOOK_MESSAGES,
  WEBHOOK_SIGNATURE_HEADER,
} from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { testApp } from '../../test/harness';
import { signWebhook } from './webhooks.service';

const SECRET = 'withings-webhook-secret-2026';
let app: App;
let db: Database;
let patientId = 0;
let scale = { id: 0, serial: '' };
let inhaler = { id: 0, serial: '' };
let regimenId = 0;

function deliver(
  body: unknown,
  options: { secret?: string; at?: number; vendor?: string; signature?: string } = {},
) {
  const raw = JSON.stringify(body);
  return app.inject({
    method: 'POST',
    url: routeUrl(c.deliver, { vendor: options.vendor ?? 'withings' }),
    payload: raw,
    headers: {
      'content-type': 'application/json',
      [WEBHOOK_SIGNATURE_HEADER]: options.signature ?? signWebhook(options.secret ?? SECRET, raw, options.at),
    },
  });
}

const now = () => new Date().toISOString();

beforeAll(async () => {
  ({ app, db } = await testApp({ WEBHOOK_SECRETS: { withings: SECRET } }));
  const g = given(db);
  const programId = (await g.program()).id;
  patientId = (await g.patient({ programId })).id;
  scale = await g.device({ programId, patientId, kind: 'scale', vendor: 'withings' });
  inhaler = await g.device({ programId, patientId, kind: 'inhaler', vendor: 'withings' });
  regimenId = (
    await g.regimen({ patientId, programId, type: 'inhaler', times: ['08:00'], deviceSerial: inhaler.serial })
  ).id;
});

describe('vendor webhooks', () => {
  it('stores a signed delivery of measurements and inhaler actuations before answering', async () => {
    const res = await deliver({
      id: 'delivery-1',
      events: [
        { device: scale.serial, seq: 1, type: 'measurement', at: now(), values: { weight: 81.4 } },
        { device: inhaler.serial, seq: 1, type: 'actuation', at: now(), puffs: 2 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ accepted: 2, duplicate: false, rejected: [] });
    const weight = await db.execute<{ value: number }>(
      sql`SELECT value FROM measurements WHERE device_id = ${scale.id}`,
    );
    expect(weight.rows).toEqual([{ value: 81.4 }]);
    const dose = await db.execute<{ regimen_id: number; servings: number; source: string }>(
      sql`SELECT regimen_id, servings, source FROM medication_usages WHERE patient_id = ${patientId}`,
    );
    expect(dose.rows).toEqual([{ regimen_id: regimenId, servings: 2, source: 'inhaler' }]);
  });

  it('answers a replayed delivery without processing it again, and stores a resent event once', async () => {
    const body = {
      id: 'delivery-2',
      events: [{ device: scale.serial, seq: 2, type: 'measurement', at: now(), values: { weight: 81 } }],
    };
    expect((await deliver(body)).json()).toMatchObject({ accepted: 1, duplicate: false });
    expect((await deliver(body)).json()).toMatchObject({ accepted: 0, duplicate: true });
    // The same event in a new delivery: the event log keeps one copy.
    expect((await deliver({ ...body, id: 'delivery-3' })).json()).toMatchObject({ accepted: 1 });
    const rows = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM device_events WHERE device_id = ${scale.id} AND seq = 2`,
    );
    expect(rows.rows[0]!.n).toBe(1);
  });

  it('refuses unsigned, badly signed and stale deliveries with 401, unknown vendors with 404', async () => {
    const body = {
      id: 'delivery-x',
      events: [{ device: scale.serial, seq: 9, type: 'heartbeat', at: now() }],
    };
    const wrong = await deliver(body, { secret: 'another-secret-of-16-chars' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(WEBHOOK_MESSAGES.signature);
    expect((await deliver(body, { signature: 'nonsense' })).statusCode).toBe(401);
    const stale = await deliver(body, { at: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toBe(WEBHOOK_MESSAGES.stale);
    expect((await deliver(body, { vendor: 'acme' })).statusCode).toBe(404);
    const stored = await db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM device_events WHERE seq = 9`,
    );
    expect(stored.rows[0]!.n).toBe(0);
  });

  it("rejects other vendors' devices and malformed events one by one, storing the rest", async () => {
    const foreign = await given(db).device({ kind: 'scale', vendor: 'omron' });
    const res = await deliver({
      id: 'delivery-4',
      events: [
        { device: foreign.serial, seq: 1, type: 'measurement', at: now(), values: { weight: 70 } },
        { device: scale.serial, seq: 3, type: 'measurement', at: now(), values: { weight: 9000 } },
        { device: scale.serial, seq: 4, type: 'measurement', at: now(), values: { weight: 80.9 } },
      ],
    });
    expect(res.json()).toEqual({
      accepted: 1,
      duplicate: false,
      rejected: [
        { index: 0, reason: 'unknown_device' },
        { index: 1, reason: 'values' },
      ],
    });
  });
});
