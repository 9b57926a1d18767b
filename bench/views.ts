/**
 * Data-view latency (issue 8 §4): `npm run views -w bench`. One patient with five regimens (eight doses a
 * day) and four measurement types, 90 days of simulated history written through the gateway's batch
 * statement; each view of a 90-day range is called through the whole HTTP stack in process (inject) and
 * timed, beside the plain SQL that reads the same rows (the floor any implementation pays). Rewrites the
 * `views` block of bench/RESULTS.md.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  authContract,
  dataViewsContract,
  kpiContract,
  type RouteContract,
  routeUrl,
  usageViewsContract,
} from '@caredeck/contracts';
import { profileFor, seededRandom, simulateDoses, simulateReadings } from '@caredeck/devices/behaviour';
import type { ScheduleRegimen } from '@caredeck/domain';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { type BatchEvent, ingestBatch } from '../apps/server/src/modules/devices/ingest.queries';
import { given } from '../apps/server/src/seed/given';
import { openBenchDatabase } from './database';
import { writeBlock } from './report';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = path.join(HERE, 'RESULTS.md');
const ROUNDS = Number(process.env.VIEWS_ROUNDS ?? 60);
const DAY = 86_400_000;
const log = (line: string) => process.stdout.write(`[views] ${line}\n`);

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(s.length * p))]!;
  return { p50: at(0.5), p95: at(0.95), max: s.at(-1)! };
}

async function main() {
  const bench = await openBenchDatabase(log);
  try {
    const db = bench.db;
    const g = given(db);
    const enterprise = await g.enterprise();
    const program = await g.program({ enterpriseId: enterprise.id });
    const password = 'CareDeck-bench-2026';
    const admin = await g.admin({
      hipaaConsented: true,
      password,
      programRoles: [{ programId: program.id, role: 'admin' }],
    });
    const patient = await g.patient({ programId: program.id, timeZone: 'America/New_York' });
    const now = Date.now();
    const start = Math.floor((now - 90 * DAY) / DAY) * DAY;
    const dispenser = await g.device({
      programId: program.id,
      patientId: patient.id,
      kind: 'dispenser',
      dispenserType: 1,
    });
    const cuff = await g.device({ programId: program.id, patientId: patient.id, kind: 'bp_cuff' });
    const oximeter = await g.device({ programId: program.id, patientId: patient.id, kind: 'pulse_oximeter' });
    const plans = [['08:00'], ['08:00', '20:00'], ['09:00'], ['07:00', '13:00', '19:00'], ['21:00']];
    const events: BatchEvent[] = [];
    let seq = 0;
    const random = seededRandom(42);
    for (const [i, times] of plans.entries()) {
      const r = await g.regimen({
        patientId: patient.id,
        programId: program.id,
        name: `Regimen ${i + 1}`,
        times,
        lockoutTime: 120,
        unlockBefore: 30,
        scheduledAt: new Date(start).toISOString(),
      });
      const schedule: ScheduleRegimen = {
        id: r.id,
        repeat: 'daily',
        interval: 1,
        times,
        timeCascade: false,
        lockoutMinutes: 120,
        unlockBeforeMinutes: 30,
        scheduledAt: start,
        endAt: null,
        multiPod: false,
        num: 1,
      };
      for (const d of simulateDoses({
        regimen: schedule,
        zone: 'America/New_York',
        from: start,
        to: now,
        now,
        profile: profileFor(i + 3),
        random,
      }))
        events.push({
          deviceId: dispenser.id,
          seq: ++seq,
          type: d.kind === 'taken' ? 'dose_taken' : 'dose_skipped',
          at: d.at,
          payload: { regimen_id: r.id },
        });
    }
    for (const [device, kind] of [
      [cuff, 'bp_cuff'],
      [oximeter, 'pulse_oximeter'],
    ] as const)
      for (const reading of simulateReadings({ device: kind, from: start, to: now, now, random }))
        events.push({
          deviceId: device.id,
          seq: ++seq,
          type: 'measurement',
          at: reading.at,
          payload: {
            m: Object.entries(reading.values).map(([type, value]) => ({
              type,
              value,
              unit: type === 'oxygen' ? '%' : type === 'pulse' ? 'bpm' : 'mmHg',
            })),
          },
        });
    const client = await db.$client.connect();
    try {
      await client.query('BEGIN');
      for (let i = 0; i < events.length; i += 5000) await ingestBatch(client, events.slice(i, i + 5000));
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await db.$client.query('VACUUM ANALYZE');
    log(`${events.length} events of 90 days for one patient with 5 regimens`);

    const { app } = await buildApp({
      config: testConfig({ LOG_LEVEL: 'silent', WEB_DIST: path.join(HERE, '.no-web-dist') }),
      db,
    });
    await app.ready();
    const signIn = await app.inject({
      method: 'POST',
      url: authContract.signIn.path,
      payload: { email: admin.email, password },
    });
    const token = (signIn.json() as { access_token: string }).access_token;
    const headers = { authorization: `Bearer ${token}` };
    const endDate = new Date(now).toISOString().slice(0, 10);
    const startDate = new Date(now - 89 * DAY).toISOString().slice(0, 10);
    const p = { programId: program.id, id: patient.id, start: startDate, end: endDate };
    const views: [string, RouteContract, Record<string, number | string>, Record<string, string>?][] = [
      ['adherence, dose by dose', dataViewsContract.adherenceRange, p],
      ['adherence graph (30 days)', dataViewsContract.userAdherenceGraph, { id: patient.id }],
      [
        'measurements grouped (4 types)',
        dataViewsContract.measurementsGrouped,
        p,
        { types: 'systolic,diastolic,pulse,oxygen' },
      ],
      [
        'measurements of a range',
        dataViewsContract.measurementsRange,
        { id: patient.id, start: startDate, end: endDate },
      ],
      ['usages per day', usageViewsContract.usages, p],
      ['activities per day', usageViewsContract.activitiesRange, p],
      [
        'program KPI (one patient)',
        kpiContract.program,
        { programId: program.id, start: startDate, end: endDate },
      ],
    ];
    const floor = async () => {
      const t0 = performance.now();
      await db.$client.query('SELECT * FROM regimens WHERE patient_id = $1', [patient.id]);
      await db.$client.query(
        'SELECT id, regimen_id, taken_at, kind FROM medication_usages WHERE patient_id = $1 AND taken_at >= $2',
        [patient.id, new Date(start - 3 * DAY)],
      );
      await db.$client.query(
        'SELECT type, value, measured_at FROM measurements WHERE patient_id = $1 AND measured_at >= $2',
        [patient.id, new Date(start)],
      );
      return performance.now() - t0;
    };
    const rows: string[] = [];
    const floorSamples: number[] = [];
    for (let i = 0; i < ROUNDS; i++) floorSamples.push(await floor());
    const f = stats(floorSamples);
    for (const [label, contract, params, query] of views) {
      const target = routeUrl(contract, params, query);
      const samples: number[] = [];
      let status = 0;
      let bytes = 0;
      for (let i = 0; i < ROUNDS + 5; i++) {
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url: target, headers });
        const ms = performance.now() - t0;
        status = res.statusCode;
        bytes = res.rawPayload.length;
        if (i >= 5) samples.push(ms);
      }
      const s = stats(samples);
      rows.push(
        `| ${label} | \`GET ${target.replace(/\?.*$/, '')}\` | ${status} | ${(bytes / 1024).toFixed(1)} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.max.toFixed(1)} | ${(s.p50 / f.p50).toFixed(1)} |`,
      );
      log(`${label}: p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms`);
    }
    await app.close();
    const lines = [
      `## Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      '',
      `- Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}; 1-min load average ${os.loadavg()[0]!.toFixed(1)}`,
      `- Database: ${bench.description}`,
      `- Data: one patient (America/New_York) with 5 daily regimens (8 doses a day), a dispenser, a blood-pressure cuff and a pulse oximeter; ${events.length.toLocaleString('en-US')} events of 90 days written through the gateway's batch statement (simulated behaviour, fixed seed)`,
      `- Method: each view of the 90-day range called ${ROUNDS} times in a row through the whole HTTP stack in process (\`app.inject\`: access hook, session check, validation, the view, serialization, compression off), after 5 warm-up calls; the floor is the plain SQL reading the same rows (regimens, doses, readings) on the same pool: p50 ${f.p50.toFixed(1)} ms`,
      `- Command: \`npm run views -w bench\` (knob \`VIEWS_ROUNDS\`)`,
      '',
      '| view | request | status | KiB | p50 ms | p95 ms | max ms | p50 / SQL floor |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...rows,
    ];
    await writeBlock(RESULTS_FILE, 'views', 'npm run views -w bench', lines.join('\n'));
    log('written to bench/RESULTS.md');
  } finally {
    await bench.dispose();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`views bench failed: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
