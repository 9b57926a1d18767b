import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Check } from './checks';
import type { Dataset } from './dataset';
import type { QueryPlan } from './explain';
import type { LoadResult, LoadSettings } from './load';
import { PER_PAGE } from './scenarios';

const SKELETON = `# Benchmark results

Figures from \`bench/run.ts\` (\`npm run bench\`) and \`bench/query-variants.ts\` (\`npm run variants -w bench\`).
The blocks between \`bench:…\` markers are rewritten by those commands; everything else is written by hand.
`;

function markers(block: string, command: string): { start: string; end: string } {
  return {
    start: `<!-- bench:${block}:start (written by \`${command}\`; edit outside these markers) -->`,
    end: `<!-- bench:${block}:end -->`,
  };
}

/** Rewrites one generated block of RESULTS.md (appending it if new) and keeps the hand-written rest. */
export async function writeBlock(
  file: string,
  block: string,
  command: string,
  content: string,
): Promise<void> {
  const { start, end } = markers(block, command);
  let current = existsSync(file) ? await readFile(file, 'utf8') : SKELETON;
  if (!current.includes(start) || !current.includes(end))
    current = `${current.trimEnd()}\n\n${start}\n${end}\n`;
  const before = current.slice(0, current.indexOf(start));
  const after = current.slice(current.indexOf(end) + end.length);
  await writeFile(file, `${before}${start}\n${content.trimEnd()}\n${end}${after}`);
  await formatMarkdown(file);
}

/** When biome is configured to format Markdown (aligned tables), format what was written so lint stays clean. */
async function formatMarkdown(file: string): Promise<void> {
  const root = path.resolve(path.dirname(file), '..');
  const biome = path.join(root, 'node_modules', '.bin', 'biome');
  try {
    await promisify(execFile)(
      biome,
      ['format', '--write', '--no-errors-on-unmatched', path.relative(root, file)],
      { cwd: root },
    );
  } catch (err) {
    process.stderr.write(`could not format ${file} with biome: ${(err as Error).message}\n`);
  }
}

export type RunReport = {
  date: Date;
  machine: string;
  database: string;
  postgres: string;
  dataset: Dataset;
  settings: LoadSettings;
  checks: Check[];
  plans: { scenarioId: string; title: string; plans: QueryPlan[] }[];
  results: LoadResult[];
  /** The large program exported as one streamed spreadsheet. */
  exported: { status: number; rows: number; seconds: number; bytes: number; rssGrowthMb: number };
  totalSeconds: number;
};

const n = (x: number) => x.toLocaleString('en-US');
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

function resultTable(results: LoadResult[], connections: number): string[] {
  const lines = [
    '| scenario | request | conns | req/s | p50 ms | p97.5 ms | p99 ms | max ms | requests | errors (timeouts) | non-2xx | CPU µs/request: bench process · PostgreSQL |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    const other = Object.entries(r.statusCodes)
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, count]) => `${count}×${code}`)
      .join(' ');
    lines.push(
      `| ${r.scenario.title} | \`GET ${r.scenario.path}\` | ${r.scenario.connections ?? connections} | ${n(Math.round(r.requestsPerSecond))} | ${ms(r.p50)} | ${ms(r.p97_5)} | ${ms(r.p99)} | ${ms(r.max)} | ${n(r.requests)} | ${r.errors} (${r.timeouts}) | ${r.non2xx}${other ? ` (${other})` : ''} | ${r.cpuUsPerRequest ? `${r.cpuUsPerRequest.process.toFixed(0)} · ${r.cpuUsPerRequest.database.toFixed(0)}` : '–'} |`,
    );
  }
  return lines;
}

function planTable(plans: RunReport['plans']): string[] {
  const lines = [
    '| scenario | statement | execution ms | shared buffers | indexes used | seq scans | plan (outermost first) |',
    '| --- | --- | ---: | ---: | --- | --- | --- |',
  ];
  for (const s of plans) {
    for (const p of s.plans) {
      lines.push(
        `| ${s.scenarioId} | ${p.label} | ${p.executionMs.toFixed(1)} | ${n(p.sharedBlocks)} | ${p.indexes.join(', ') || '—'} | ${p.seqScans.join(', ') || '—'} | ${p.nodes.slice(0, 6).join(' → ')} |`,
      );
    }
  }
  return lines;
}

function observations(r: RunReport): string[] {
  const by = (id: string) => r.results.find((x) => x.scenario.id === id);
  const out: string[] = [];
  const first = by('list-name');
  for (const [product, bare, what] of [
    ['list-50', 'list-50-bare', 'patients page 1'],
    ['user-50', 'user-50-bare', 'GET /api/v1/user'],
  ] as const) {
    const a = by(product);
    const b = by(bare);
    if (a && b && b.requestsPerSecond > 0) {
      out.push(
        `- ${what} at ${a.scenario.connections} connections: product ${n(Math.round(a.requestsPerSecond))} req/s (p99 ${ms(a.p99)} ms) vs bare baseline ${n(Math.round(b.requestsPerSecond))} req/s (p99 ${ms(b.p99)} ms): ratio **${(a.requestsPerSecond / b.requestsPerSecond).toFixed(2)}**.`,
      );
    }
  }
  for (const [id, what] of [
    ['list-middle', 'the middle page (OFFSET)'],
    ['list-middle-keyset', 'the middle page reached with Next (after=<id>)'],
    ['list-deep', 'the last page'],
    ['deep-dob', 'the last page by date of birth'],
    ['filter-status', 'statuses=pending'],
    ['filter-assignee', 'one assignee'],
    ['filter-combined', 'three filters, sorted by status'],
    ['search', 'the name search'],
    ['list-created', 'sort by created_at DESC'],
  ] as const) {
    const other = by(id);
    if (first && other && first.p50 > 0) {
      out.push(
        `- ${what}: p50 ${ms(other.p50)} ms vs ${ms(first.p50)} ms for page 1 by name (${(other.p50 / first.p50).toFixed(1)}×).`,
      );
    }
  }
  const one = by('user');
  const many = by('user-sessions');
  if (one && many) {
    out.push(
      `- GET /api/v1/user: ${n(Math.round(one.requestsPerSecond))} req/s on one shared session vs ${n(Math.round(many.requestsPerSecond))} req/s with a session per connection.`,
    );
  }
  const failures = r.results.filter((x) => x.errors > 0 || x.non2xx > 0).map((x) => x.scenario.id);
  out.push(
    failures.length
      ? `- errors or non-2xx answers in: ${failures.join(', ')}.`
      : '- no errors and no non-2xx answers.',
  );
  return out;
}

function generated(r: RunReport): string {
  const d = r.dataset;
  const search = r.plans.find((p) => p.scenarioId === 'search');
  const lines = [
    `## Run of ${r.date.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `- Machine: ${r.machine}`,
    `- Database: ${r.database}; ${r.postgres}`,
    `- Dataset: program ${d.bigProgramId} with ${n(d.bigCount)} patients, program ${d.smallProgramId} with ${n(d.smallCount)} (same enterprise, so tenant filtering matters), ${d.staffCount} staff accounts; shared factories (\`createPatients\` in batches of 5,000), faker seed fixed; generated and vacuum-analysed in ${d.seconds.toFixed(1)} s`,
    `- Load: autocannon 9.0.0 in one worker thread, ${r.settings.connections} connections, ${r.settings.durationSeconds} s per scenario after a ${r.settings.warmupSeconds} s warm-up, \`per_page=${PER_PAGE}\`; server built with \`buildApp\` in the bench process (logger silent, pool of 10 connections), on 127.0.0.1`,
    `- Commands: \`npm run bench\` (repo root or \`bench/\`); knobs \`BENCH_PATIENTS\`, \`BENCH_SECOND_PATIENTS\`, \`BENCH_DURATION\`, \`BENCH_CONNECTIONS\`, \`BENCH_DATABASE_URL\`; for investigating, \`BENCH_ONLY=<scenario ids regex>\` (prints, writes nothing) and \`BENCH_STATEMENTS=1\` (pg_stat_statements: planning and execution per statement); whole run ${r.totalSeconds.toFixed(0)} s`,
    '',
    ...resultTable(r.results, r.settings.connections),
    '',
    '### Answers checked before the load',
    '',
    ...r.checks.map((c) => `- ${c.ok ? 'ok' : '**WRONG**'} ${c.name}: ${c.detail}`),
    '',
    '### Query plans: EXPLAIN (ANALYZE, BUFFERS) of the statements `listPatients` sends',
    '',
    ...planTable(r.plans),
    '',
  ];
  if (search) {
    for (const p of search.plans) {
      lines.push(`Search (\`name=smi\`), ${p.label} statement:`, '', '```text', p.text, '```', '');
    }
  }
  const e = r.exported;
  lines.push(
    '### Export throughput',
    '',
    `- \`GET /api/v1/programs/${d.bigProgramId}/users/export/2030-01-01/2030-12-31\`: HTTP ${e.status}, ${n(e.rows)} patients in ${e.seconds.toFixed(1)} s (${n(Math.round(e.rows / e.seconds))} rows/s), ${(e.bytes / 2 ** 20).toFixed(1)} MiB .xlsx; resident memory of the bench process (server included) grew by ${e.rssGrowthMb.toFixed(0)} MiB at the peak (streamed in batches, never the whole sheet in memory).`,
    '',
  );
  lines.push('### Measured, in short', '', ...observations(r));
  return lines.join('\n');
}

export function writeResults(file: string, r: RunReport): Promise<void> {
  return writeBlock(file, 'results', 'npm run bench', generated(r));
}
