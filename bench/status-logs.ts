/**
 * The status log bench (ADR 047): `npm run status-logs -w bench`. A 100,000-patient program and a
 * 10,000-patient neighbour in one enterprise (the shared dataset), each patient with their enrolment row, a
 * year of single changes (about 200,000 in the large program), one bulk change of 20,000 patients three days
 * ago and a few rare changes (one staff member's, activations). For each call of the log:
 * 1. EXPLAIN (ANALYZE, BUFFERS) of the two statements the server sends (page and total), captured from
 *    `statusLogPage` itself, with the log's two indexes and, in the same run, without them;
 * 2. its latency through the whole HTTP stack in process (inject), beside page 1 of the patients list of the
 *    same program (the baseline every list is compared with).
 * Rewrites the `status-logs` block of bench/RESULTS.md.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { authContract, patientsContract, routeUrl, statusLogsContract } from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import {
  type StatusLogFilter,
  statusLogPage,
} from '../apps/server/src/modules/status-logs/status-logs.queries';
import { periodOf } from '../apps/server/src/modules/status-logs/status-logs.service';
import type { Database, Queryable } from '../apps/server/src/platform/db/client';
import { openBenchDatabase } from './database';
import { BENCH_ADMIN, generateDataset } from './dataset';
import { writeBlock } from './report';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RESULTS_FILE = path.join(HERE, 'RESULTS.md');
const BIG = Number(process.env.BENCH_PATIENTS ?? 100_000);
const SMALL = Number(process.env.BENCH_SECOND_PATIENTS ?? 10_000);
const ROUNDS = Number(process.env.STATUS_LOG_ROUNDS ?? 30);
const PER_PAGE = 20;
const INDEXES = ['patient_status_history_program_idx', 'patient_status_history_admin_idx'];
const log = (line: string) => process.stdout.write(`[status-logs] ${line}\n`);
const n = (v: number) => Math.round(v).toLocaleString('en-US');
const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1));

type PlanNode = {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
};
type Plan = { ms: number; blocks: number; scans: string };

function walk(node: PlanNode, out: PlanNode[]) {
  out.push(node);
  for (const child of node.Plans ?? []) walk(child, out);
}

/** The statements statusLogPage sends, recorded instead of run: the plans are the server's own. */
async function statements(f: StatusLogFilter): Promise<SQL[]> {
  const out: SQL[] = [];
  const recorder = {
    execute: async (q: SQL) => {
      out.push(q);
      return { rows: [] };
    },
  } as unknown as Queryable;
  await statusLogPage(recorder, f);
  return out;
}

async function explain(db: Database, statement: SQL): Promise<Plan> {
  const res = await db.execute<{
    'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }];
  }>(sql`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement}`);
  const root = res.rows[0]!['QUERY PLAN'][0];
  const nodes: PlanNode[] = [];
  walk(root.Plan, nodes);
  const scans = nodes
    .filter((x) => /Scan/.test(x['Node Type']) && (x['Index Name'] || x['Relation Name']))
    .filter((x) => (x['Index Name'] ?? x['Relation Name'])!.startsWith('patient_status_history'))
    .map(
      (x) => `${x['Node Type']} ${x['Index Name'] ?? x['Relation Name']} (rows ${n(x['Actual Rows'] ?? 0)})`,
    );
  return {
    ms: root['Execution Time'],
    blocks: (root.Plan['Shared Hit Blocks'] ?? 0) + (root.Plan['Shared Read Blocks'] ?? 0),
    scans: [...new Set(scans)].join('; ') || '—',
  };
}

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(s.length * p))]!;
  return { p50: at(0.5), p95: at(0.95) };
}

async function main() {
  const machine = `${os.cpus().length} cores, Node ${process.version}; 1-min load average ${os.loadavg()[0]!.toFixed(1)} before the run`;
  const bench = await openBenchDatabase(log);
  try {
    const db = bench.db;
    const data = await generateDataset(db, { big: BIG, small: SMALL }, log);
    const big = data.bigProgramId;
    const small = data.smallProgramId;
    await db.execute(sql`UPDATE patients SET mrn = 'MRN-' || id`);
    const staff = (
      await db.execute<{ id: number }>(sql`
        SELECT DISTINCT r.admin_id AS id FROM admin_program_roles r WHERE r.program_id = ${big} ORDER BY 1`)
    ).rows.map((r) => r.id);
    const rare = staff[0]!;
    const staffArray = `{${staff.join(',')}}`;
    // Every patient's enrolment, then a year of single changes (two per patient of the large program on average),
    // a bulk change of 20,000 patients three days ago, and a staff member with only 50 changes.
    await db.execute(sql`
      INSERT INTO patient_status_history (patient_id, program_id, previous_status, status, source, admin_id, created_at)
      SELECT id, program_id, NULL, 'active', 'enrolment', NULL, created_at FROM patients`);
    await db.execute(sql`
      INSERT INTO patient_status_history (patient_id, program_id, previous_status, status, source, admin_id, created_at)
      SELECT p.id, p.program_id, (ARRAY['active','pending','inactive','discharged'])[1 + (p.id + k + 3) % 4],
        (ARRAY['active','pending','inactive','discharged'])[1 + (p.id + k) % 4], 'single',
        (${staffArray}::bigint[])[2 + (p.id * 7 + k) % (${staff.length} - 1)],
        now() - make_interval(secs => ((p.id * 7919 + k * 104729) % (365 * 86400))::int)
      FROM patients p CROSS JOIN generate_series(1, 2) k`);
    await db.execute(sql`
      INSERT INTO patient_status_history (patient_id, program_id, previous_status, status, source, admin_id, created_at)
      SELECT id, program_id, 'active', 'pending', 'bulk', ${staff[1]!}, now() - interval '3 days'
      FROM patients WHERE program_id = ${big} ORDER BY id LIMIT 20000`);
    await db.execute(sql`
      INSERT INTO patient_status_history (patient_id, program_id, previous_status, status, source, admin_id, created_at)
      SELECT id, program_id, 'active', 'inactive', CASE WHEN id % 2 = 0 THEN 'activation' ELSE 'single' END, ${rare},
        now() - make_interval(days => (id % 300)::int)
      FROM patients WHERE program_id = ${big} ORDER BY id DESC LIMIT 50`);
    await db.$client.query('VACUUM ANALYZE patient_status_history');
    const totals = (
      await db.execute<{ all: number; big: number; month: number }>(sql`
        SELECT count(*)::int AS all, count(*) FILTER (WHERE program_id = ${big})::int AS big,
          count(*) FILTER (WHERE program_id = ${big} AND created_at > now() - interval '30 days')::int AS month
        FROM patient_status_history`)
    ).rows[0]!;
    log(
      `history: ${n(totals.all)} rows, ${n(totals.big)} in the large program, ${n(totals.month)} of them in 30 days`,
    );

    const month = periodOf({});
    const year = periodOf({ start: new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10) });
    const base = { programIds: [big], ...month, page: 1, perPage: PER_PAGE };
    const scenarios: {
      label: string;
      filter: StatusLogFilter;
      query: Record<string, string>;
      enterprise?: boolean;
    }[] = [
      { label: 'page 1, last 30 days', filter: base, query: {} },
      { label: 'page 50, last 30 days', filter: { ...base, page: 50 }, query: { page: '50' } },
      {
        label: 'page 1, last 366 days',
        filter: { ...base, ...year },
        query: { start: year.from, end: year.to },
      },
      {
        label: 'status = discharged',
        filter: { ...base, status: 'discharged' },
        query: { status: 'discharged' },
      },
      {
        label: 'changed by a staff member with 50 changes, 366 days',
        filter: { ...base, ...year, adminId: rare },
        query: { admin_id: String(rare), start: year.from, end: year.to },
      },
      {
        label: 'source = activation, 366 days',
        filter: { ...base, ...year, source: 'activation' },
        query: { source: 'activation', start: year.from, end: year.to },
      },
      { label: "patient search 'smi'", filter: { ...base, search: 'smi' }, query: { search: 'smi' } },
      { label: 'patient search by MRN', filter: { ...base, search: 'MRN-77' }, query: { search: 'MRN-77' } },
      {
        label: 'enterprise (both programs), page 1',
        filter: { ...base, programIds: [big, small] },
        query: {},
        enterprise: true,
      },
    ];

    const { app } = await buildApp({
      config: testConfig({ LOG_LEVEL: 'silent', WEB_DIST: path.join(HERE, '.no-web-dist') }),
      db,
    });
    await app.ready();
    const signIn = await app.inject({
      method: 'POST',
      url: authContract.signIn.path,
      payload: { email: BENCH_ADMIN.email, password: BENCH_ADMIN.password },
    });
    const headers = { authorization: `Bearer ${(signIn.json() as { access_token: string }).access_token}` };
    const enterpriseId = (
      await db.execute<{ id: number }>(sql`SELECT enterprise_id AS id FROM programs WHERE id = ${big}`)
    ).rows[0]!.id;
    await db.execute(sql`
      INSERT INTO admin_enterprise_roles (admin_id, enterprise_id, role)
      SELECT id, ${enterpriseId}, 'enterprise_admin' FROM admins WHERE email = ${BENCH_ADMIN.email}`);
    const time = async (url: string) => {
      const first = await app.inject({ method: 'GET', url, headers });
      if (first.statusCode !== 200) throw new Error(`${url}: HTTP ${first.statusCode} ${first.body}`);
      const samples: number[] = [];
      for (let i = 0; i < ROUNDS + 3; i++) {
        const t0 = performance.now();
        await app.inject({ method: 'GET', url, headers });
        if (i >= 3) samples.push(performance.now() - t0);
      }
      return { ...stats(samples), total: (first.json() as { total: number }).total };
    };
    const baseline = await time(
      routeUrl(
        patientsContract.list,
        { programId: big },
        { per_page: PER_PAGE, sort_by: 'name', sort_direction: 'ASC' },
      ),
    );
    log(`baseline: patients list page 1 p50 ${ms(baseline.p50)} ms`);

    const results = [];
    for (const s of scenarios) {
      const url = s.enterprise
        ? routeUrl(statusLogsContract.enterpriseList, { enterpriseId }, { per_page: PER_PAGE, ...s.query })
        : routeUrl(statusLogsContract.list, { programId: big }, { per_page: PER_PAGE, ...s.query });
      const http = await time(url);
      const [page, count] = await statements(s.filter);
      results.push({ ...s, http, page: await explain(db, page!), count: await explain(db, count!) });
      log(`${s.label}: p50 ${ms(http.p50)} ms, total ${n(http.total)}`);
    }
    await app.close();

    // The same statements without the two indexes of the log (the baseline of the plans).
    for (const index of INDEXES) await db.$client.query(`DROP INDEX ${index}`);
    await db.$client.query('ANALYZE patient_status_history');
    for (const r of results) {
      const [page, count] = await statements(r.filter);
      Object.assign(r, { pageWithout: await explain(db, page!), countWithout: await explain(db, count!) });
    }

    const rowsOf = results as ((typeof results)[number] & { pageWithout: Plan; countWithout: Plan })[];
    const block = [
      `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}, ${bench.description}, one run.`,
      '',
      `Data: ${n(BIG)} patients in the large program, ${n(SMALL)} in its neighbour; ${n(totals.all)} status changes (${n(totals.big)} in the large program, ${n(totals.month)} of them in the last 30 days: a bulk change of 20,000 patients three days ago among them). \`per_page=${PER_PAGE}\`; ${ROUNDS} calls each through the whole HTTP stack in process (session, access, page and total in parallel, PHI-view audit row).`,
      '',
      `Baseline in the same run: \`GET programs/{p}/users\` page 1 (name order) p50 ${ms(baseline.p50)} ms, p95 ${ms(baseline.p95)} ms.`,
      '',
      '| call | total | p50 ms | p95 ms | p50 / patients list | page: ms, buffers (with the indexes) | total: ms, buffers | page without them | total without them | plan of the page (history scans) |',
      '|---|---:|---:|---:|---:|---|---|---|---|---|',
      ...rowsOf.map(
        (r) =>
          `| ${r.label} | ${n(r.http.total)} | ${ms(r.http.p50)} | ${ms(r.http.p95)} | ${(r.http.p50 / baseline.p50).toFixed(2)} | ${ms(r.page.ms)}, ${n(r.page.blocks)} | ${ms(r.count.ms)}, ${n(r.count.blocks)} | ${ms(r.pageWithout.ms)}, ${n(r.pageWithout.blocks)} | ${ms(r.countWithout.ms)}, ${n(r.countWithout.blocks)} | ${r.page.scans} |`,
      ),
    ].join('\n');
    await writeBlock(RESULTS_FILE, 'status-logs', 'npm run status-logs -w bench', block);
    log('bench/RESULTS.md updated');
  } finally {
    await bench.dispose();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
