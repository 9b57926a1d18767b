import {
  isCalendarDay,
  type PatientListItem,
  type PatientListQueryOut,
  SURVEY_DUE_DAYS,
} from '@caredeck/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { defineObjectKind } from '../../platform/access/rules';
import { idArray } from '../../platform/access/scope';
import { executePrepared, type Queryable } from '../../platform/db/client';
import { containsPattern, prefixPattern } from '../../platform/db/like';
import { listMarks, MARK_STEP, type Marks } from './list-marks';

/** The contract's query, in the wire's spelling, the programs it reads and who asks ('me' filters). */
export type PatientListFilter = { programIds: number[]; query: PatientListQueryOut; adminId?: number };

const textList = (values: readonly string[]) =>
  `{${values.map((v) => `"${v.replace(/["\\]/g, '')}"`).join(',')}}`;

/** The list's filters as one condition (TRUE without any); `hasFilters` tells whether the rollup total holds. */
function listFilters(
  f: PatientListQueryOut,
  adminId: number | undefined,
): { where: SQL; hasFilters: boolean; conditions: number } {
  const parts: SQL[] = [];
  if (f.sex?.length) parts.push(sql`p.sex = ANY(${textList(f.sex)}::text[])`);
  if (f.race?.length) parts.push(sql`p.race = ANY(${textList(f.race)}::text[])`);
  if (f.ethnicity?.length) parts.push(sql`p.ethnicity = ANY(${textList(f.ethnicity)}::text[])`);
  if (f.income?.length) parts.push(sql`p.income = ANY(${textList(f.income)}::text[])`);
  if (f.statuses?.length) parts.push(sql`p.status = ANY(${textList(f.statuses)}::text[])`);
  const states = [...(f.state ?? []), ...(f.states ?? [])];
  if (states.length) parts.push(sql`p.state = ANY(${textList(states)}::text[])`);
  if (f.active !== undefined) parts.push(sql`p.active = ${f.active}`);
  if (f.assignedAdmin === 'none') parts.push(sql`p.assigned_admin_id IS NULL`);
  else if (f.assignedAdmin === 'me') parts.push(sql`p.assigned_admin_id = ${adminId ?? 0}`);
  else if (f.assignedAdmin) parts.push(sql`p.assigned_admin_id = ${Number(f.assignedAdmin)}`);
  if (f.physicians?.length) parts.push(sql`p.physician_id = ANY(${idArray(f.physicians)}::bigint[])`);
  if (f.group)
    parts.push(
      sql`EXISTS (SELECT 1 FROM group_patients gp WHERE gp.group_id = ${f.group} AND gp.patient_id = p.id)`,
    );
  if (f.disease_state) {
    const prefix = `${f.disease_state.toUpperCase().replace(/[\\%_]/g, '')}%`;
    parts.push(sql`EXISTS (
      SELECT 1 FROM disease_states ds, jsonb_array_elements(ds.conditions) c
      LEFT JOIN diagnosis_codes dc ON dc.code = c->>'code'
      WHERE ds.patient_id = p.id AND ds.deleted_at IS NULL AND ds.ended_at IS NULL
        AND ((c->>'code') LIKE ${prefix} OR lower(dc.disease_state) = lower(${f.disease_state})))`);
  }
  parts.push(...laterAreaFilters(f, adminId));
  return {
    where: parts.length ? sql.join(parts, sql` AND `) : sql`TRUE`,
    hasFilters: parts.length > 0,
    conditions: parts.length,
  };
}

const when = (yes: boolean, condition: SQL) => (yes ? condition : sql`NOT ${condition}`);

/**
 * Area filters (escalations, pipelines, follow-ups) as sets of patient ids: the patient must be in every set
 * asked for and in none of those refused. Written as one `p.id = ANY(ARRAY(… INTERSECT …))` and one
 * `p.id <> ALL(ARRAY(… UNION …))`, not EXISTS: the ids are found first from the areas' tables (a few thousand
 * follow-ups, escalations or pipeline places), then the patients by their key. EXISTS let the planner read the
 * whole program's patients and semi-join them (100,000 rows for 2,900 follow-ups due this week: 120-240 ms at
 * 100,000 patients, ADR 069); one array per condition made PostgreSQL 15 match every key of one array against
 * the other in the index scan (1 s), hence a single array each way.
 */
function areaSets(sets: { yes: boolean; ids: SQL }[]): SQL[] {
  // Without NULLs: one NULL in the array would make `<> ALL` unknown for every patient.
  const array = (subqueries: SQL[], op: 'INTERSECT' | 'UNION') =>
    sql`ARRAY(SELECT x.id FROM (${sql.join(
      subqueries.map((q) => sql`(${q})`),
      sql.raw(` ${op} `),
    )}) AS x(id) WHERE x.id IS NOT NULL)`;
  const wanted = sets.filter((s) => s.yes).map((s) => s.ids);
  const refused = sets.filter((s) => !s.yes).map((s) => s.ids);
  const parts: SQL[] = [];
  if (wanted.length) parts.push(sql`p.id = ANY(${array(wanted, 'INTERSECT')})`);
  if (refused.length) parts.push(sql`p.id <> ALL(${array(refused, 'UNION')})`);
  return parts;
}

/** Escalations, pipelines and follow-ups (sets of patient ids, areaSets) and assessments (an EXISTS each). */
function laterAreaFilters(f: PatientListQueryOut, adminId: number | undefined): SQL[] {
  const sets: { yes: boolean; ids: SQL }[] = [];
  if (f.escalation !== undefined)
    sets.push({
      yes: f.escalation,
      ids: sql`SELECT a.patient_id FROM alerts a WHERE a.status = 'escalated'
          UNION SELECT n.patient_id FROM notes n WHERE n.escalation_active AND n.deleted_at IS NULL`,
    });
  const inPipeline = (ids?: number[]) => sql`SELECT pp.patient_id FROM pipeline_patients pp
    WHERE pp.status = 'active' ${ids?.length ? sql`AND pp.pipeline_id = ANY(${idArray(ids)}::bigint[])` : sql``}`;
  if (f.pipelines?.length) sets.push({ yes: true, ids: inPipeline(f.pipelines) });
  if (f.patientType) sets.push({ yes: f.patientType === 'pipeline', ids: inPipeline() });
  const followUp = (
    extra: SQL,
  ) => sql`SELECT fu.patient_id FROM follow_ups fu JOIN notes n ON n.id = fu.note_id
    WHERE fu.completed_at IS NULL AND n.deleted_at IS NULL ${extra}`;
  if (f.follow_up !== undefined) sets.push({ yes: f.follow_up, ids: followUp(sql``) });
  if (f.follow_up_for || f.follow_up_by) {
    const by = f.follow_up_by === 'me' ? (adminId ?? 0) : f.follow_up_by ? Number(f.follow_up_by) : null;
    const day =
      f.follow_up_for === 'overdue'
        ? sql`AND fu.due_date < current_date`
        : f.follow_up_for === 'today'
          ? sql`AND fu.due_date = current_date`
          : f.follow_up_for === 'week'
            ? sql`AND fu.due_date BETWEEN current_date AND current_date + 7`
            : f.follow_up_for
              ? sql`AND fu.due_date = ${f.follow_up_for}::date`
              : sql``;
    sets.push({
      yes: true,
      ids: followUp(sql`${day} ${by === null ? sql`` : sql`AND fu.admin_id = ${by}`}`),
    });
  }
  const parts = areaSets(sets);
  const surveys = f.assessment_ids?.length
    ? sql`AND sa.survey_id = ANY(${idArray(f.assessment_ids)}::bigint[])`
    : sql``;
  const assessment = (state: SQL) =>
    sql`EXISTS (SELECT 1 FROM survey_assignments sa WHERE sa.patient_id = p.id ${surveys} AND ${state})`;
  if (f.assessment_completed !== undefined)
    parts.push(when(f.assessment_completed, assessment(sql`sa.status = 'completed'`)));
  if (f.assessment_type)
    parts.push(
      assessment(
        {
          open: sql`sa.status = 'pending' AND sa.scheduled_at <= now()`,
          overdue: sql`sa.status = 'pending' AND sa.scheduled_at + ${sql.raw(`interval '${SURVEY_DUE_DAYS} days'`)} < now()`,
          completed: sql`sa.status = 'completed'`,
          flagged: sql`sa.status = 'completed' AND EXISTS (SELECT 1 FROM survey_responses sr
            WHERE sr.assignment_id = sa.id AND jsonb_array_length(sr.triggers) > 0)`,
        }[f.assessment_type],
      ),
    );
  else if (f.assessment_ids?.length && f.assessment_completed === undefined)
    parts.push(assessment(sql`sa.status <> 'unassigned'`));
  return parts;
}

// Orders match the (program_id, …, id) indexes; only dob may be null.
const SORT: Record<PatientListQueryOut['sort_by'], string[]> = {
  name: ['p.last_name', 'p.first_name'],
  first_name: ['p.first_name', 'p.last_name'],
  last_name: ['p.last_name', 'p.first_name'],
  dob: ['p.dob'],
  status: ['p.status', 'p.last_name'],
  created_at: ['p.created_at'],
  id: [],
};

/**
 * An MRN typed in a search: the whole MRN (any case), or from three characters on its start ("MRN-10" finds
 * MRN-1042), through the MRN's trigram index.
 */
export function mrnMatch(text: string): SQL {
  const typed = text.trim();
  return typed.length >= 3
    ? sql`p.mrn ILIKE ${prefixPattern(typed)}`
    : sql`lower(p.mrn) = ${typed.toLowerCase()}`;
}

/**
 * Name filter: every word typed must match the first or the last name ("ann smi" finds Ann Smith; the comma of
 * "Smith, Ann", as the list shows names, separates words). A search with a digit may also be an MRN
 * (its start, any case: mrnMatch); a birth date (YYYY-MM-DD) is a date of birth or an MRN, as the Ctrl+K finder takes them.
 */
function nameFilter(name: string | undefined): SQL {
  const text = (name ?? '').trim();
  if (isCalendarDay(text)) return sql`(p.dob = ${text}::date OR ${mrnMatch(text)})`;
  const parts = text
    .split(/[\s,]+/)
    .filter(Boolean)
    .slice(0, 5)
    .map((token) => {
      const pattern = containsPattern(token);
      return sql`(p.first_name ILIKE ${pattern} OR p.last_name ILIKE ${pattern})`;
    });
  if (!parts.length) return sql`TRUE`;
  const names = sql.join(parts, sql` AND `);
  return /\d/.test(text) ? sql`(${mrnMatch(text)} OR (${names}))` : names;
}

/** A search or filters matching at most this many patients are sorted from their matches (see pageRows). */
const FEW_MATCHES = 5000;

type Row = Omit<PatientListItem, 'created_at' | 'follow_up'> & { created_at: Date; follow_up: Date | null };

/**
 * One page of patients and the total. Each program is read through its own ordered index scan
 * (LATERAL per program, LIMIT offset + page), then the few rows are merged: a single program and
 * an enterprise of several cost the same, where `program_id = ANY(…)` would sort whole programs.
 */
export async function listPatients(
  db: Queryable,
  { programIds, query: f, adminId }: PatientListFilter,
): Promise<{ rows: PatientListItem[]; total: number }> {
  const ids = programIds.map(Number).filter(Number.isSafeInteger);
  if (ids.length === 0) return { rows: [], total: 0 };
  const idArray = `{${ids.join(',')}}`;
  const filters = listFilters(f, adminId);
  const names = sql`${nameFilter(f.name)} AND ${filters.where}`;
  const ascending = f.sort_direction !== 'DESC';
  // Patients without a date of birth come last in either direction; read from the other end, first.
  const orderBy = (asc: boolean) => {
    const d = asc ? 'ASC' : 'DESC';
    const nulls = asc === ascending ? 'LAST' : 'FIRST';
    const columns = SORT[f.sort_by].map((c) => (c === 'p.dob' ? `${c} ${d} NULLS ${nulls}` : `${c} ${d}`));
    return sql.raw([...columns, `p.id ${d}`].join(', '));
  };
  const order = orderBy(ascending);
  // Without a search or filter the total comes from the trigger-kept rollup; with one, from the matching rows.
  const unfiltered = !f.name?.trim() && !filters.hasFilters;
  const countQuery = unfiltered
    ? sql`SELECT coalesce(sum(patients), 0)::int AS n, coalesce(sum(version), 0)::bigint AS v
          FROM program_patient_counts WHERE program_id = ANY(${idArray}::bigint[])`
    : sql`SELECT count(*)::int AS n, 0::bigint AS v FROM patients p
          WHERE p.program_id = ANY(${idArray}::bigint[]) AND ${names}`;
  // The version of the program's patients the total was read at (page marks are valid for one).
  let version = -1;
  const countOf = async () => {
    const row = (await executePrepared<{ n: number; v: number }>(db, countQuery)).rows[0];
    version = row?.v ?? -1;
    return row?.n ?? 0;
  };

  // The page's rows read whole (the deferred join's second half), from a CTE named `page` of ids.
  const rowsOfPage = sql`
      SELECT p.id, p.program_id, p.mrn, date_part('year', age(p.dob))::int AS age,
        p.first_name, p.last_name, p.first_name || ' ' || p.last_name AS name,
        p.email, p.phone_number, p.dob, p.sex, p.status, p.active,
        CASE WHEN a.id IS NULL THEN NULL
          ELSE json_build_object('id', a.id, 'name', a.given_name || ' ' || a.family_name) END AS assigned_admin,
        p.follow_up_at AS follow_up, p.created_at
      FROM page JOIN patients p ON p.id = page.id
      LEFT JOIN admins a ON a.id = p.assigned_admin_id
      ORDER BY ${order}`;

  // Deferred join: the page is chosen over thin rows (id and sort columns, an index-only scan of the
  // (program_id, sort…, id) index), and only its 10–100 rows are then read whole. A deep OFFSET then
  // skips index entries, not heap rows. A page in the second half is read from the other end of the same
  // index (reverse order, offset counted from the end), so the last page costs what the first does.
  const thin = sql.raw([...new Set(['p.id', ...SORT[f.sort_by]])].join(', '));
  const pageRows = (asc: boolean, limit: number, offset: number, seek: SQL = sql`TRUE`, few = false) => {
    const by = orderBy(asc);
    // Few matches (a search or filters that leave at most FEW_MATCHES rows): they are gathered through the
    // filters' own indexes (trigram, status, state…) and sorted, instead of walking the sort index and
    // testing every row against the filters (a name search used to test 22,000 rows for its 20).
    // One program otherwise: its index yields the rows in order. Several: each program's first offset + page
    // rows, through its own index, merged by the outer ORDER BY.
    // A first page (or a keyset page) has no OFFSET and its LIMIT written out (a validated 1–100): the
    // statement is then one prepared shape per filter set and page size, and PostgreSQL keeps its generic
    // plan instead of planning every call (planning was 60 % of this statement's time, with the patients
    // table's dozen indexes to weigh). A deep page keeps both as parameters and is planned each time.
    const lim = offset === 0 ? sql.raw(String(Math.trunc(limit))) : sql`${limit}`;
    const off = offset === 0 ? sql`` : sql` OFFSET ${offset}`;
    const ahead = offset === 0 ? lim : sql`${offset + limit}`;
    const page = few
      ? sql`SELECT ${thin} FROM (SELECT ${thin} FROM patients p
            WHERE p.program_id = ANY(${idArray}::bigint[]) AND ${names} AND ${seek}
            OFFSET 0) p
          ORDER BY ${by} LIMIT ${lim}${off}`
      : ids.length === 1
        ? sql`SELECT ${thin} FROM patients p WHERE p.program_id = ${ids[0]} AND ${names} AND ${seek}
            ORDER BY ${by} LIMIT ${lim}${off}`
        : sql`SELECT ${thin} FROM unnest(${idArray}::bigint[]) AS prog(id)
            CROSS JOIN LATERAL (
              SELECT ${thin} FROM patients p WHERE p.program_id = prog.id AND ${names} AND ${seek}
              ORDER BY ${by} LIMIT ${ahead}
            ) p
            ORDER BY ${by} LIMIT ${lim}${off}`;
    return executePrepared<Row>(db, sql`WITH page AS MATERIALIZED (${page}) ${rowsOfPage}`);
  };

  const offset = (f.page - 1) * f.per_page;
  // Keyset: `after`/`before` name the last (first) row of the adjacent page the client holds; the page is
  // sought from that row through the index instead of counting OFFSET rows. Only the id travels (no PHI in
  // URLs); its sort values are read in the same statement. Not for dob (nullable: row comparison would
  // drop the rows without a date); an anchor that is gone falls back to the offset.
  const anchor = f.after ?? f.before;
  const keys = [...SORT[f.sort_by], 'p.id'];
  const seekable = anchor !== undefined && f.sort_by !== 'dob';
  const seek = () => {
    const forward = f.after !== undefined;
    const cmp = ascending === forward ? '>' : '<';
    const anchorKeys = sql.raw(keys.map((k) => k.replace(/^p\./, 'x.')).join(', '));
    return {
      asc: forward ? ascending : !ascending,
      where: sql`(${sql.raw(keys.join(', '))}) ${sql.raw(cmp)} (SELECT ${anchorKeys} FROM patients x
        WHERE x.id = ${anchor} AND x.program_id = ANY(${idArray}::bigint[]))`,
    };
  };
  // With a search, or several filters at once, few patients usually match: one statement gathers the matches
  // once through the filters' own indexes (trigram, status, state…), counts them and sorts the page from them,
  // instead of a count and then a page that would find the same rows again. Past FEW_MATCHES it says so and
  // the count comes first, then the page walks the sort index (pageRows). One filter alone walks its own
  // (program_id, column, sort…) index well, so its count is read alongside the page, like the rollup total.
  const narrowed = Boolean(f.name?.trim()) || filters.conditions >= 2;
  const fewFirst = async (asc: boolean, limit: number, skip: number, seekWhere: SQL) => {
    const lim = skip === 0 ? sql.raw(String(Math.trunc(limit))) : sql`${limit}`;
    const off = skip === 0 ? sql`` : sql` OFFSET ${skip}`;
    const res = await executePrepared<Row & { total: number }>(
      db,
      sql`
      WITH m AS MATERIALIZED (
        SELECT ${thin} FROM patients p WHERE p.program_id = ANY(${idArray}::bigint[]) AND ${names}
        LIMIT ${sql.raw(String(FEW_MATCHES + 1))}
      ), n AS (SELECT count(*)::int AS total FROM m),
      page AS MATERIALIZED (
        SELECT p.id FROM m p WHERE (SELECT total FROM n) <= ${sql.raw(String(FEW_MATCHES))} AND ${seekWhere}
        ORDER BY ${orderBy(asc)} LIMIT ${lim}${off}
      )
      SELECT n.total, p.* FROM n LEFT JOIN LATERAL (${rowsOfPage}) p ON true
      ORDER BY ${order}`,
    );
    const total = res.rows[0]?.total ?? 0;
    if (total > FEW_MATCHES) return null;
    return { total, rows: res.rows.filter((r) => r.id !== null).map(({ total: _t, ...r }) => r as Row) };
  };
  if (narrowed) {
    const s = seekable ? seek() : null;
    let first = await fewFirst(s ? s.asc : ascending, f.per_page, s ? 0 : offset, s ? s.where : sql`TRUE`);
    // An anchor that is gone: the page by its number.
    if (first && s && first.rows.length === 0 && offset < first.total)
      first = await fewFirst(ascending, f.per_page, offset, sql`TRUE`);
    if (first) return { rows: first.rows.map(listItem), total: first.total };
  }
  const known = narrowed ? await countOf() : undefined;
  const few = known !== undefined && known <= FEW_MATCHES;
  const count = () => (known !== undefined ? Promise.resolve(known) : countOf());
  let rows: { rows: Row[] };
  let total: number;
  if (seekable) {
    const { asc, where } = seek();
    [rows, total] = await Promise.all([pageRows(asc, f.per_page, 0, where, few), count()]);
    if (rows.rows.length === 0 && offset < total)
      rows = await pageRows(ascending, f.per_page, offset, sql`TRUE`, few);
  } else if (f.page === 1) {
    [rows, total] = await Promise.all([pageRows(ascending, f.per_page, 0, sql`TRUE`, few), count()]);
  } else {
    total = await count();
    const remaining = total - offset;
    // A deep page of one program's whole list: sought from the page mark before it (list-marks.ts).
    const markable = unfiltered && ids.length === 1 && f.sort_by !== 'dob' && offset >= MARK_STEP;
    const markKey = `${ids[0]}|${f.sort_by}|${ascending ? 'asc' : 'desc'}`;
    const marks = markable && remaining > 0 ? listMarks.get(markKey, version) : null;
    const j = Math.floor(offset / MARK_STEP) - 1;
    if (markable && !marks && remaining > 0)
      listMarks.build(markKey, () => pageMarks(db, ids[0]!, thin, keys, orderBy(ascending)));
    if (remaining <= 0) rows = { rows: [] };
    else if (marks && j < marks.keys.length) {
      const mark = marks.keys[j]!;
      const cmp = ascending ? '>' : '<';
      rows = await pageRows(
        ascending,
        f.per_page,
        offset - (j + 1) * MARK_STEP,
        sql`(${sql.raw(keys.join(', '))}) ${sql.raw(cmp)} (${sql.join(
          mark.map((v) => sql`${v}`),
          sql`, `,
        )})`,
      );
    } else if (!few && offset > total / 2)
      rows = await pageRows(
        !ascending,
        Math.min(f.per_page, remaining),
        Math.max(0, total - f.page * f.per_page),
      );
    else rows = await pageRows(ascending, f.per_page, offset, sql`TRUE`, few);
  }
  return { rows: rows.rows.map(listItem), total };
}

/**
 * The page marks of one program's whole list in one order, with the version they are of, read in one
 * statement (one snapshot): the sort values and id of every MARK_STEP-th row, through the order's index.
 */
async function pageMarks(
  db: Queryable,
  programId: number,
  thin: SQL,
  keys: string[],
  by: SQL,
): Promise<Marks> {
  const res = await db.execute<{ version: number | null; keys: unknown[][] }>(sql`
    SELECT (SELECT c.version FROM program_patient_counts c WHERE c.program_id = ${programId}) AS version,
      coalesce((
        SELECT json_agg(json_build_array(${sql.raw(keys.map((k) => k.replace(/^p\./, 'x.')).join(', '))}) ORDER BY x.rn)
        FROM (SELECT ${thin}, row_number() OVER (ORDER BY ${by}) AS rn FROM patients p
              WHERE p.program_id = ${programId}) x
        WHERE x.rn % ${MARK_STEP} = 0
      ), '[]') AS keys`);
  const row = res.rows[0];
  return { version: row?.version ?? -2, keys: row?.keys ?? [] };
}

const listItem = (r: Row): PatientListItem => ({
  ...r,
  created_at: new Date(r.created_at).toISOString(),
  follow_up: r.follow_up ? new Date(r.follow_up).toISOString() : null,
});

/** A patient, named by `users/{id}`-style paths without their program: access rules resolve its program. */
export const patientObject = defineObjectKind(
  'patient',
  (id) => sql`SELECT program_id FROM patients WHERE id = ${id}`,
);
