import { dataViewsContract as c, routeUrl, usageViewsContract as u } from '@caredeck/contracts';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';

let app: App;
let db: Database;
let token = '';
let programId = 0;
let patientId = 0;

type Point = { value: number; measured_at: string; min?: number; max?: number; count?: number };

const getJson = async (target: string) => {
  const res = await app.inject({ method: 'GET', url: target, headers: bearer(token) });
  expect(res.statusCode).toBe(200);
  return res.json();
};

const grouped = async (start: string, end: string, types: string) => {
  const res = await app.inject({
    method: 'GET',
    url: routeUrl(c.measurementsGrouped, { programId, id: patientId, start, end }, { types }),
    headers: bearer(token),
  });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    data: Record<string, Point[]>;
    units: Record<string, string>;
    series: Record<string, { readings: number; downsampled: boolean; bucket_seconds: number | null }>;
  };
};

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  programId = (await g.program()).id;
  patientId = (await g.patient({ programId, timeZone: 'UTC' })).id;
  const admin = await g.admin({
    hipaaConsented: true,
    programRoles: [{ programId, role: 'care_coordinator' }],
  });
  token = (await signIn(app, admin.email, FACTORY_PASSWORD)).token;
  // A wearable's pulse every minute of November (43,200 readings, more than the old 20,000-row cap): the
  // value is 60 + the minute of the hour, so every hour holds 60..119, mean 89.5.
  await db.execute(sql`
    INSERT INTO measurements (patient_id, program_id, type, value, unit, measured_at)
    SELECT ${patientId}, ${programId}, 'pulse', 60 + extract(minute FROM ts), 'bpm', ts
    FROM generate_series('2026-11-01T00:00:00Z'::timestamptz, '2026-11-30T23:59:00Z', interval '1 minute') ts`);
  // Exactly as many oxygen readings on 30 November as a chart shows (1,000): answered raw.
  await db.execute(sql`
    INSERT INTO measurements (patient_id, program_id, type, value, unit, measured_at)
    SELECT ${patientId}, ${programId}, 'oxygen', 90 + (i % 10), '%', '2026-11-30T00:00:00Z'::timestamptz + i * interval '1 minute'
    FROM generate_series(0, 999) i`);
  // An inhaler used every 5 minutes (6,000 doses, more than the 5,000 a usages answer lists) and 10
  // rescue puffs on the last day.
  const controllerId = (
    await g.regimen({ patientId, programId, name: 'Controller inhaler', type: 'inhaler' })
  ).id;
  const rescueId = (
    await g.regimen({ patientId, programId, name: 'Rescue inhaler', type: 'inhaler', repeat: 'as_needed' })
  ).id;
  await db.execute(sql`
    INSERT INTO medication_usages (patient_id, regimen_id, taken_at, source)
    SELECT ${patientId}, ${controllerId}, '2026-11-01T00:00:00Z'::timestamptz + i * interval '5 minutes', 'inhaler'
    FROM generate_series(0, 5999) i`);
  await db.execute(sql`
    INSERT INTO medication_usages (patient_id, regimen_id, taken_at, source)
    SELECT ${patientId}, ${rescueId}, '2026-11-30T12:00:00Z'::timestamptz + i * interval '1 minute', 'inhaler'
    FROM generate_series(0, 9) i`);
  await db.execute(sql`
    INSERT INTO measurements (patient_id, program_id, type, value, unit, measured_at)
    VALUES (${patientId}, ${programId}, 'systolic', 128, 'mmHg', '2026-11-29T08:00:00Z'),
           (${patientId}, ${programId}, 'systolic', 151, 'mmHg', '2026-11-30T08:00:00Z')`);
});

describe('readings chart at any size (issue 27)', () => {
  it('answers a month of a reading a minute as hourly buckets up to the last hour, with min/mean/max', async () => {
    const body = await grouped('2026-11-01', '2026-11-30', 'pulse,systolic');
    expect(body.series.pulse).toEqual({ readings: 43_200, downsampled: true, bucket_seconds: 3600 });
    const pulse = body.data.pulse!;
    expect(pulse).toHaveLength(30 * 24);
    expect(pulse[0]).toEqual({
      value: 89.5,
      min: 60,
      max: 119,
      count: 60,
      measured_at: '2026-11-01T00:00:00.000Z',
    });
    // The newest readings are there: the last bucket is the last hour of the range.
    expect(pulse.at(-1)).toEqual({
      value: 89.5,
      min: 60,
      max: 119,
      count: 60,
      measured_at: '2026-11-30T23:00:00.000Z',
    });
    expect(pulse.reduce((n, p) => n + p.count!, 0)).toBe(43_200);
    expect(body.units.pulse).toBe('bpm');
    // A type with few readings keeps its raw points, unchanged for existing clients.
    expect(body.series.systolic).toEqual({ readings: 2, downsampled: false, bucket_seconds: null });
    expect(body.data.systolic).toEqual([
      { value: 128, measured_at: '2026-11-29T08:00:00.000Z' },
      { value: 151, measured_at: '2026-11-30T08:00:00.000Z' },
    ]);
  });

  it('chooses the bucket from the range: one day of minutes is 5-minute buckets; 1,000 readings stay raw', async () => {
    const body = await grouped('2026-11-30', '2026-11-30', 'pulse,oxygen,weight');
    expect(body.series.pulse).toEqual({ readings: 1440, downsampled: true, bucket_seconds: 300 });
    expect(body.data.pulse).toHaveLength(288);
    // Minutes 55..59 of the last hour: 115..119.
    expect(body.data.pulse!.at(-1)).toEqual({
      value: 117,
      min: 115,
      max: 119,
      count: 5,
      measured_at: '2026-11-30T23:55:00.000Z',
    });
    expect(body.series.oxygen).toEqual({ readings: 1000, downsampled: false, bucket_seconds: null });
    expect(body.data.oxygen).toHaveLength(1000);
    expect(body.data.oxygen!.at(-1)).toEqual({ value: 99, measured_at: '2026-11-30T16:39:00.000Z' });
    expect(body.series.weight).toEqual({ readings: 0, downsampled: false, bucket_seconds: null });
    expect(body.data.weight).toEqual([]);
  });

  it('answers a year in 12-hour buckets (730 at most)', async () => {
    const body = await grouped('2025-12-01', '2026-11-30', 'pulse');
    expect(body.series.pulse).toMatchObject({ downsampled: true, bucket_seconds: 43_200 });
    expect(body.data.pulse).toHaveLength(60);
    expect(body.data.pulse!.at(-1)).toMatchObject({ measured_at: '2026-11-30T12:00:00.000Z', count: 720 });
  });

  it('a raw reading list keeps the newest readings and says how many the range holds', async () => {
    const range = await getJson(
      routeUrl(
        c.measurementsRange,
        { id: patientId, start: '2026-11-01', end: '2026-11-30' },
        { types: 'pulse' },
      ),
    );
    expect(range.total).toBe(43_200);
    expect(range.data).toHaveLength(20_000);
    expect(range.data.at(-1).measured_at).toBe('2026-11-30T23:59:00.000Z');
    expect(range.data[0].measured_at < range.data[1].measured_at).toBe(true);
    const all = await getJson(routeUrl(c.patientAll, { id: patientId }));
    expect(all.total).toBe(43_200 + 1000 + 2);
    expect(all.data).toHaveLength(1000);
    expect(all.data[0].measured_at).toBe('2026-11-30T23:59:00.000Z');
  });

  it('usage answers count every dose per day and list the newest 5,000 with the total', async () => {
    const params = { programId, start: '2026-11-01', end: '2026-11-30' };
    const inhaler = await getJson(routeUrl(u.inhalerUsages, { ...params, userId: patientId }));
    expect(inhaler.data_total).toBe(6010);
    expect(inhaler.data).toHaveLength(5000);
    expect(inhaler.data.at(-1)).toMatchObject({ use: 'rescue', taken_at: '2026-11-30T12:09:00.000Z' });
    const sum = (key: 'controller' | 'rescue') =>
      inhaler.daily.reduce((n: number, d: Record<string, number>) => n + d[key]!, 0);
    expect(sum('controller')).toBe(6000);
    expect(sum('rescue')).toBe(10);
    expect(inhaler.daily.find((d: { date: string }) => d.date === '2026-11-01')).toEqual({
      date: '2026-11-01',
      controller: 288,
      rescue: 0,
    });
    const usages = await getJson(routeUrl(u.usages, { ...params, id: patientId }));
    expect(usages.data_total).toBe(6010);
    expect(usages.data).toHaveLength(5000);
    expect(usages.daily.reduce((n: number, d: { doses: number }) => n + d.doses, 0)).toBe(6010);
    expect(usages.pods_total).toBe(0);
  });
});
