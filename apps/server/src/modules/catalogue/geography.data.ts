import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { US_STATE_CODES, US_STATE_NAMES } from '@caredeck/contracts';

const FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data', 'us-cities.tsv');

type City = { name: string; population: number; folded: string };
let byState: Map<string, City[]> | null = null;

const fold = (v: string) => v.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The shipped US cities (data/us-cities.tsv, ≈16,000 places), read once and kept by state, largest first. */
function cities(): Map<string, City[]> {
  if (byState) return byState;
  const map = new Map<string, City[]>();
  for (const line of readFileSync(FILE, 'utf8').split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [state, name, population] = line.split('\t');
    if (!state || !name) continue;
    const list = map.get(state) ?? [];
    list.push({ name, population: Number(population) || 0, folded: fold(name) });
    map.set(state, list);
  }
  byState = map;
  return map;
}

/** A search matches the start of the name or of any word in it ("york" finds New York), accents ignored. */
function matches(folded: string, needle: string): boolean {
  return needle === '' || folded.startsWith(needle) || folded.includes(` ${needle}`);
}

export function searchStates(search: string, limit: number): { code: string; name: string }[] {
  const needle = fold(search.trim());
  return US_STATE_CODES.map((code) => ({ code, name: US_STATE_NAMES[code] }))
    .filter((s) => needle === '' || s.code.toLowerCase() === needle || matches(fold(s.name), needle))
    .slice(0, limit);
}

/** Cities of a state, or null for a code that is not a US state or territory. */
export function searchCities(
  state: string,
  search: string,
  limit: number,
): { name: string; population: number }[] | null {
  if (!(US_STATE_CODES as readonly string[]).includes(state)) return null;
  const needle = fold(search.trim());
  const out: { name: string; population: number }[] = [];
  for (const city of cities().get(state) ?? []) {
    if (!matches(city.folded, needle)) continue;
    out.push({ name: city.name, population: city.population });
    if (out.length >= limit) break;
  }
  return out;
}
