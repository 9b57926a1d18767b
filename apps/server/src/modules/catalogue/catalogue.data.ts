import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Queryable } from '../../platform/db/client';
import { catalogueIsEmpty, type DrugRow, upsertDiagnosisCodes, upsertDrugs } from './catalogue.queries';

const DATA_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data');

function rows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.split('\t'));
}
const list = (cell: string | undefined) =>
  cell
    ? cell
        .split('|')
        .map((v) => v.trim())
        .filter(Boolean)
    : [];

/** The catalogue shipped with the project (data/drugs.tsv, data/icd10.tsv), loaded once into an empty database. */
export async function loadShippedCatalogue(db: Queryable): Promise<void> {
  if (!(await catalogueIsEmpty(db))) return;
  const drugs = rows(await readFile(path.join(DATA_DIR, 'drugs.tsv'), 'utf8')).map(
    ([name, brands, strengths, routes, forms, indications]): DrugRow => ({
      name: name!.trim(),
      brands: list(brands),
      strengths: list(strengths),
      routes: list(routes),
      forms: list(forms),
      indications: list(indications),
    }),
  );
  const codes = rows(await readFile(path.join(DATA_DIR, 'icd10.tsv'), 'utf8')).map(
    ([code, description, state]) => ({
      code: code!.trim(),
      description: description!.trim(),
      disease_state: state?.trim() || null,
    }),
  );
  await upsertDrugs(db, drugs);
  await upsertDiagnosisCodes(db, codes);
}

async function* lines(file: string): AsyncGenerator<string> {
  const reader = createInterface({
    input: createReadStream(file, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of reader) yield line;
}

/**
 * The FDA NDC Directory's product.txt (tab-separated, a header row): products are grouped by generic
 * (non-proprietary) name; each adds its strength, route, dose form and proprietary name.
 */
export async function readNdcProducts(file: string): Promise<DrugRow[]> {
  const byName = new Map<
    string,
    { brands: Set<string>; strengths: Set<string>; routes: Set<string>; forms: Set<string> }
  >();
  let header: string[] | null = null;
  for await (const line of lines(file)) {
    const cells = line.split('\t');
    if (!header) {
      header = cells.map((c) => c.trim().toUpperCase());
      continue;
    }
    const get = (column: string) => (cells[header!.indexOf(column)] ?? '').trim();
    const generic = get('NONPROPRIETARYNAME').toLowerCase();
    if (!generic) continue;
    const entry = byName.get(generic) ?? {
      brands: new Set(),
      strengths: new Set(),
      routes: new Set(),
      forms: new Set(),
    };
    byName.set(generic, entry);
    const brand = get('PROPRIETARYNAME');
    if (brand && brand.toLowerCase() !== generic) entry.brands.add(brand);
    const numerators = get('ACTIVE_NUMERATOR_STRENGTH')
      .split(';')
      .map((s) => s.trim());
    const units = get('ACTIVE_INGRED_UNIT')
      .split(';')
      .map((s) => s.trim());
    const strength = numerators
      .map((n, i) => (n ? `${n} ${(units[i] ?? '').replace(/\/1$/, '')}`.trim() : ''))
      .filter(Boolean)
      .join('/');
    if (strength) entry.strengths.add(strength);
    for (const route of get('ROUTENAME').split(';'))
      if (route.trim()) entry.routes.add(route.trim().toLowerCase());
    const form = get('DOSAGEFORMNAME').toLowerCase();
    if (form) entry.forms.add(form);
  }
  return [...byName].map(([name, e]) => ({
    name,
    brands: [...e.brands].sort(),
    strengths: [...e.strengths].sort(
      (a, b) => Number.parseFloat(a) - Number.parseFloat(b) || a.localeCompare(b),
    ),
    routes: [...e.routes].sort(),
    forms: [...e.forms].sort(),
    indications: [],
  }));
}

/**
 * The CMS ICD-10-CM order file (fixed width: order 5, code 7 at 6, billable flag at 14, short description
 * 60 at 16, long description from 77). Billable codes only, dotted as they are written (E119 → E11.9).
 */
export async function readIcd10Order(
  file: string,
): Promise<{ code: string; description: string; disease_state: null }[]> {
  const codes: { code: string; description: string; disease_state: null }[] = [];
  for await (const line of lines(file)) {
    if (line.length < 16) continue;
    const raw = line.slice(6, 13).trim();
    const billable = line.slice(14, 15) === '1';
    if (!raw || !billable) continue;
    const code = raw.length > 3 ? `${raw.slice(0, 3)}.${raw.slice(3)}` : raw;
    const description = (line.length > 77 ? line.slice(77) : line.slice(16, 76)).trim();
    codes.push({ code, description, disease_state: null });
  }
  return codes;
}
