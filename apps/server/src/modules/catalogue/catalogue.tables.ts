import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';

/** Medications by generic name, with their strengths, routes, dose forms, indications and brand names. */
export const drugs = pgTable(
  'drugs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull().unique(),
    brands: text('brands').array().notNull().default(sql`'{}'::text[]`),
    strengths: text('strengths').array().notNull().default(sql`'{}'::text[]`),
    routes: text('routes').array().notNull().default(sql`'{}'::text[]`),
    forms: text('forms').array().notNull().default(sql`'{}'::text[]`),
    indications: text('indications').array().notNull().default(sql`'{}'::text[]`),
    /** Lower-cased generic and brand names, for prefix search. */
    searchNames: text('search_names').array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [
    index('drugs_name_prefix_idx').on(sql`lower(${t.name}) text_pattern_ops`),
    index('drugs_search_names_idx').using('gin', t.searchNames),
  ],
);

/** ICD-10-CM codes and the disease state (condition) each belongs to. */
export const diagnosisCodes = pgTable(
  'diagnosis_codes',
  {
    code: text('code').primaryKey(),
    description: text('description').notNull(),
    diseaseState: text('disease_state'),
  },
  (t) => [
    index('diagnosis_codes_description_trgm_idx').using('gin', sql`${t.description} gin_trgm_ops`),
    index('diagnosis_codes_disease_state_idx').on(t.diseaseState),
  ],
);
