import { type SQL, sql } from 'drizzle-orm';
import { listPatients, type PatientListFilter } from '../apps/server/src/modules/patients/patients.queries';
import type { Database, Queryable } from '../apps/server/src/platform/db/client';

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Sort Method'?: string;
  'Rows Removed by Filter'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
};

export type QueryPlan = {
  label: 'page' | 'count';
  executionMs: number;
  planningMs: number;
  /** e.g. "Index Scan patients_program_name_idx (rows 20)", outermost first. */
  nodes: string[];
  indexes: string[];
  seqScans: string[];
  sharedBlocks: number;
  text: string;
};

/**
 * The exact statements listPatients sends, captured by handing it a recording stand-in for the database,
 * so the plan is the server's, not a hand-copied query that could drift from it.
 */
async function capturedStatements(f: PatientListFilter): Promise<SQL[]> {
  const statements: SQL[] = [];
  const recorder = {
    execute: async (q: SQL) => {
      statements.push(q);
      return { rows: [] };
    },
  } as unknown as Queryable;
  await listPatients(recorder, f);
  return statements;
}

function walk(node: PlanNode, out: PlanNode[]): void {
  out.push(node);
  for (const child of node.Plans ?? []) walk(child, out);
}

function describe(n: PlanNode): string {
  const on = n['Index Name'] ?? n['Relation Name'];
  const extra = [
    n['Actual Rows'] !== undefined
      ? `rows ${n['Actual Rows']}${(n['Actual Loops'] ?? 1) > 1 ? `×${n['Actual Loops']}` : ''}`
      : '',
    n['Rows Removed by Filter'] ? `removed by filter ${n['Rows Removed by Filter']}` : '',
    n['Sort Method'] ? n['Sort Method'] : '',
  ].filter(Boolean);
  return `${n['Node Type']}${on ? ` ${on}` : ''}${extra.length ? ` (${extra.join(', ')})` : ''}`;
}

export async function explainList(db: Database, f: PatientListFilter): Promise<QueryPlan[]> {
  const [page, count] = await capturedStatements(f);
  const plans: QueryPlan[] = [];
  for (const [label, statement] of [
    ['page', page],
    ['count', count],
  ] as const) {
    if (!statement) continue;
    const json = await db.execute<{
      'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number; 'Planning Time': number }];
    }>(sql`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement}`);
    const text = await db.execute<{ 'QUERY PLAN': string }>(sql`EXPLAIN (ANALYZE, BUFFERS) ${statement}`);
    const root = json.rows[0]!['QUERY PLAN'][0];
    const nodes: PlanNode[] = [];
    walk(root.Plan, nodes);
    plans.push({
      label,
      executionMs: root['Execution Time'],
      planningMs: root['Planning Time'],
      nodes: nodes.map(describe),
      indexes: [...new Set(nodes.map((n) => n['Index Name']).filter((x): x is string => Boolean(x)))],
      seqScans: nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name'] ?? '?'),
      sharedBlocks: (root.Plan['Shared Hit Blocks'] ?? 0) + (root.Plan['Shared Read Blocks'] ?? 0),
      text: text.rows.map((r) => r['QUERY PLAN']).join('\n'),
    });
  }
  return plans;
}
