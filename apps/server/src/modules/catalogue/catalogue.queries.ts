import { sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client';

export type DrugRow = {
  name: string;
  brands: string[];
  strengths: string[];
  routes: string[];
  forms: string[];
  indications: string[];
};

const like = (v: string) => `${v.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Drugs whose generic or brand name, or a word of it, starts with the text: 'toprol' finds metoprolol succinate
 * by its brand, 'succ' by its second word, and 'met' does not bring salmeterol. Names that start with the text
 * (generic or brand) come first, then by name.
 */
export async function searchDrugs(db: Queryable, query: string, limit: number) {
  const prefix = like(query);
  const wordPrefix = `% ${prefix}`;
  const res = await db.execute<{ id: number; name: string; brands: string[] }>(sql`
    SELECT id, name, brands FROM drugs
    WHERE ${
      query === ''
        ? sql`true`
        : sql`EXISTS (SELECT 1 FROM unnest(search_names) n WHERE n LIKE ${prefix} OR n LIKE ${wordPrefix})`
    }
    ORDER BY EXISTS (SELECT 1 FROM unnest(search_names) n WHERE n LIKE ${prefix}) DESC, name
    LIMIT ${limit}`);
  return res.rows;
}

/** One attribute list of a drug named by its generic or brand name (case-insensitive), or null. */
export async function drugAttribute(
  db: Queryable,
  name: string,
  attribute: 'strengths' | 'routes' | 'forms' | 'indications',
): Promise<string[] | null> {
  const column = sql.raw(attribute);
  const res = await db.execute<{ values: string[] }>(sql`
    SELECT ${column} AS values FROM drugs WHERE lower(name) = lower(${name}) OR lower(${name}) = ANY(search_names)
    ORDER BY lower(name) = lower(${name}) DESC LIMIT 1`);
  return res.rows[0]?.values ?? null;
}

export async function searchDiagnosisCodes(db: Queryable, query: string, limit: number) {
  const res = await db.execute<{ code: string; description: string; disease_state: string | null }>(sql`
    SELECT code, description, disease_state FROM diagnosis_codes
    WHERE ${query === '' ? sql`true` : sql`code ILIKE ${like(query)} OR description ILIKE ${`%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`}
    ORDER BY (code ILIKE ${like(query)}) DESC, code
    LIMIT ${limit}`);
  return res.rows;
}

export async function searchDiseaseStates(db: Queryable, query: string, limit: number) {
  const res = await db.execute<{ name: string; codes: { code: string; description: string }[] }>(sql`
    SELECT disease_state AS name,
      json_agg(json_build_object('code', code, 'description', description) ORDER BY code) AS codes
    FROM diagnosis_codes
    WHERE disease_state IS NOT NULL ${query === '' ? sql`` : sql`AND disease_state ILIKE ${`%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`}
    GROUP BY disease_state ORDER BY disease_state LIMIT ${limit}`);
  return res.rows;
}

export async function catalogueIsEmpty(db: Queryable): Promise<boolean> {
  const res = await db.execute<{ n: number }>(sql`SELECT (SELECT count(*) FROM drugs)::int AS n`);
  return (res.rows[0]?.n ?? 0) === 0;
}

/** Adds or replaces drugs by generic name (the shipped list and the importer both use it). */
export async function upsertDrugs(db: Queryable, rows: DrugRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const payload = rows.map((r) => ({
    ...r,
    search_names: [...new Set([r.name, ...r.brands].map((n) => n.toLowerCase()))],
  }));
  const res = await db.execute(sql`
    INSERT INTO drugs (name, brands, strengths, routes, forms, indications, search_names)
    SELECT name, ARRAY(SELECT jsonb_array_elements_text(brands)), ARRAY(SELECT jsonb_array_elements_text(strengths)),
      ARRAY(SELECT jsonb_array_elements_text(routes)), ARRAY(SELECT jsonb_array_elements_text(forms)),
      ARRAY(SELECT jsonb_array_elements_text(indications)), ARRAY(SELECT jsonb_array_elements_text(search_names))
    FROM jsonb_to_recordset(${JSON.stringify(payload)}::jsonb) AS x(name text, brands jsonb, strengths jsonb, routes jsonb,
      forms jsonb, indications jsonb, search_names jsonb)
    ON CONFLICT (name) DO UPDATE SET brands = EXCLUDED.brands, strengths = EXCLUDED.strengths, routes = EXCLUDED.routes,
      forms = EXCLUDED.forms, indications = CASE WHEN cardinality(EXCLUDED.indications) > 0 THEN EXCLUDED.indications
        ELSE drugs.indications END, search_names = EXCLUDED.search_names`);
  return res.rowCount ?? 0;
}

export async function upsertDiagnosisCodes(
  db: Queryable,
  rows: { code: string; description: string; disease_state: string | null }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const res = await db.execute(sql`
    INSERT INTO diagnosis_codes (code, description, disease_state)
    SELECT code, description, disease_state FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS x(code text, description text, disease_state text)
    ON CONFLICT (code) DO UPDATE SET description = EXCLUDED.description,
      disease_state = coalesce(EXCLUDED.disease_state, diagnosis_codes.disease_state)`);
  return res.rowCount ?? 0;
}
