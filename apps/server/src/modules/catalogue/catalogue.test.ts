import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  catalogueContract as c,
  geographyContract as geo,
  type RouteContract,
  routeUrl,
} from '@caredeck/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client';
import type { App } from '../../platform/http/types';
import { given } from '../../seed/given';
import { bearer, signIn } from '../../test/flows';
import { testApp } from '../../test/harness';
import { FACTORY_PASSWORD } from '../identity/identity.factories';
import { readIcd10Order, readNdcProducts } from './catalogue.data';
import { upsertDiagnosisCodes, upsertDrugs } from './catalogue.queries';

let app: App;
let db: Database;
let token = '';
let outsider = '';
let programId = 0;

const url = (
  contract: RouteContract,
  params: Record<string, string | number> = {},
  query?: Record<string, string>,
) => routeUrl(contract, { programId, ...params }, query);
const get = (target: string, as = token) => app.inject({ method: 'GET', url: target, headers: bearer(as) });

beforeAll(async () => {
  ({ app, db } = await testApp());
  const g = given(db);
  programId = (await g.program()).id;
  const staff = await g.admin({ hipaaConsented: true, programRoles: [{ programId, role: 'physician' }] });
  token = (await signIn(app, staff.email, FACTORY_PASSWORD)).token;
  const other = await g.admin({
    hipaaConsented: true,
    programRoles: [{ programId: (await g.program()).id, role: 'admin' }],
  });
  outsider = (await signIn(app, other.email, FACTORY_PASSWORD)).token;
});

describe('the shipped catalogue', () => {
  it('finds medications by generic or brand name prefix, and their strengths, routes, forms and indications', async () => {
    const byBrand = await get(url(c.drugs, {}, { query: 'topr' }));
    expect(byBrand.statusCode).toBe(200);
    expect(byBrand.json().data[0]).toMatchObject({ name: 'metoprolol succinate', brands: ['Toprol XL'] });
    const byGeneric = await get(url(c.drugs, {}, { query: 'Lisin' }));
    expect(byGeneric.json().data.map((d: { name: string }) => d.name)).toEqual(['lisinopril']);
    expect((await get(url(c.strengths, { q: 'lisinopril' }))).json().data).toContain('10 mg');
    expect((await get(url(c.routes, { q: 'Ventolin HFA' }))).json().data).toEqual(['inhalation']);
    expect((await get(url(c.forms, { q: 'metformin' }))).json().data).toEqual([
      'tablet',
      'tablet, extended release',
    ]);
    expect((await get(url(c.indications, { q: 'Eliquis' }))).json().data).toContain(
      'Stroke prevention in atrial fibrillation',
    );
    expect((await get(url(c.strengths, { q: 'no such drug' }))).statusCode).toBe(404);
    expect((await get(routeUrl(c.allDrugs, undefined, { query: 'jardi' }))).json().data[0].name).toBe(
      'empagliflozin',
    );
  });

  it('matches the start of a word, not the middle of one, and ranks names that start with the text first', async () => {
    const names = async (query: string) =>
      (await get(url(c.drugs, {}, { query }))).json().data.map((d: { name: string }) => d.name) as string[];
    // 'met' is the start of metformin and metoprolol, only the middle of salmeterol.
    const met = await names('met');
    expect(met).toEqual(expect.arrayContaining(['metformin', 'metoprolol succinate', 'metoprolol tartrate']));
    expect(met.some((n) => n.includes('salmeterol'))).toBe(false);
    // A second word: 'succ' finds metoprolol succinate.
    expect(await names('succ')).toContain('metoprolol succinate');
    // A brand that starts with the text (Glucophage, Glucotrol) comes before a generic name that only has a
    // later word starting with it.
    const glu = await names('glu');
    expect(glu.slice(0, 2).sort()).toEqual(['glipizide', 'metformin']);
    // LIKE wildcards are text, not patterns.
    expect(await names('%')).toEqual([]);
  });

  it('finds ICD-10-CM codes by code or words, and disease states with their codes', async () => {
    const byCode = await get(url(c.diagnosisCodes, {}, { query: 'E11.6' }));
    expect(byCode.json().data[0]).toMatchObject({ code: 'E11.65', disease_state: 'Type 2 diabetes' });
    const byWords = await get(url(c.diagnosisCodes, {}, { query: 'systolic' }));
    expect(byWords.json().data.map((d: { code: string }) => d.code)).toContain('I50.22');
    const states = await get(url(c.diseaseStates, {}, { query: 'heart' }));
    const heartFailure = states.json().data.find((s: { name: string }) => s.name === 'Heart failure');
    expect(heartFailure.codes.map((x: { code: string }) => x.code)).toContain('I50.9');
    expect((await get(url(c.diagnosisCodes, {}, { query: '%' }))).json().data).toEqual([]);
  });

  it('answers 404 to another program and 401 signed out', async () => {
    expect((await get(url(c.drugs, {}, { query: 'a' }), outsider)).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: url(c.drugs) })).statusCode).toBe(401);
  });
});

describe('the importer of the public release files', () => {
  it('reads the FDA NDC product file and the CMS ICD-10-CM order file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalogue-'));
    const ndc = path.join(dir, 'product.txt');
    const header = [
      'PRODUCTID',
      'PRODUCTNDC',
      'PRODUCTTYPENAME',
      'PROPRIETARYNAME',
      'PROPRIETARYNAMESUFFIX',
      'NONPROPRIETARYNAME',
      'DOSAGEFORMNAME',
      'ROUTENAME',
      'STARTMARKETINGDATE',
      'ENDMARKETINGDATE',
      'MARKETINGCATEGORYNAME',
      'APPLICATIONNUMBER',
      'LABELERNAME',
      'SUBSTANCENAME',
      'ACTIVE_NUMERATOR_STRENGTH',
      'ACTIVE_INGRED_UNIT',
      'PHARM_CLASSES',
      'DEASCHEDULE',
      'NDC_EXCLUDE_FLAG',
      'LISTING_RECORD_CERTIFIED_THROUGH',
    ];
    const product = (
      brand: string,
      generic: string,
      form: string,
      route: string,
      strength: string,
      unit: string,
    ) =>
      [
        '0002-0001_x',
        '0002-0001',
        'HUMAN PRESCRIPTION DRUG',
        brand,
        '',
        generic,
        form,
        route,
        '20200101',
        '',
        'NDA',
        'NDA000000',
        'Labeler',
        generic.toUpperCase(),
        strength,
        unit,
        '',
        '',
        'N',
        '20271231',
      ].join('\t');
    writeFileSync(
      ndc,
      [
        header.join('\t'),
        product('Farxiga', 'Dapagliflozin', 'TABLET, FILM COATED', 'ORAL', '5', 'mg/1'),
        product('Farxiga', 'Dapagliflozin', 'TABLET, FILM COATED', 'ORAL', '10', 'mg/1'),
        product(
          'Qtern',
          'Dapagliflozin and Saxagliptin',
          'TABLET, FILM COATED',
          'ORAL',
          '10; 5',
          'mg/1; mg/1',
        ),
      ].join('\n'),
    );
    const order = path.join(dir, 'icd10cm-order-2026.txt');
    const line = (n: number, code: string, billable: 0 | 1, short: string, long: string) =>
      `${String(n).padStart(5, '0')} ${code.padEnd(7)} ${billable} ${short.padEnd(60)} ${long}`;
    writeFileSync(
      order,
      [
        line(1, 'E11', 0, 'Type 2 diabetes mellitus', 'Type 2 diabetes mellitus'),
        line(
          2,
          'E1121',
          1,
          'Type 2 diabetes mellitus with diabetic nephropathy',
          'Type 2 diabetes mellitus with diabetic nephropathy',
        ),
        line(3, 'I10', 1, 'Essential (primary) hypertension', 'Essential (primary) hypertension'),
      ].join('\n'),
    );
    const drugs = await readNdcProducts(ndc);
    expect(drugs.find((d) => d.name === 'dapagliflozin')).toMatchObject({
      brands: ['Farxiga'],
      strengths: ['5 mg', '10 mg'],
      routes: ['oral'],
      forms: ['tablet, film coated'],
    });
    expect(drugs.find((d) => d.name === 'dapagliflozin and saxagliptin')?.strengths).toEqual(['10 mg/5 mg']);
    const codes = await readIcd10Order(order);
    expect(codes.map((x) => x.code)).toEqual(['E11.21', 'I10']);
    await upsertDrugs(db, drugs);
    await upsertDiagnosisCodes(db, codes);
    // Imported rows join the shipped ones; the shipped indications of a drug survive an import without them.
    expect((await get(url(c.diagnosisCodes, {}, { query: 'E11.21' }))).json().data[0].code).toBe('E11.21');
    expect((await get(url(c.strengths, { q: 'Qtern' }))).json().data).toEqual(['10 mg/5 mg']);
    expect((await get(url(c.indications, { q: 'dapagliflozin' }))).json().data).toContain('Heart failure');
    expect((await get(url(c.strengths, { q: 'dapagliflozin' }))).json().data).toEqual(['5 mg', '10 mg']);
  });
});

describe('geography lookups (01 §7, §8 limits 100 and 250)', () => {
  it('lists states and territories by name or code', async () => {
    const all = await get(url(geo.states));
    expect(all.statusCode).toBe(200);
    expect(all.json().data.length).toBeGreaterThanOrEqual(51);
    expect(all.json().data.length).toBeLessThanOrEqual(100);
    const penn = await get(url(geo.states, {}, { search: 'penn' }));
    expect(penn.json().data).toEqual([{ code: 'PA', name: 'Pennsylvania' }]);
    expect((await get(url(geo.states, {}, { search: 'ny' }))).json().data[0]).toEqual({
      code: 'NY',
      name: 'New York',
    });
  });

  it('lists a state’s cities largest first, at most 250, searched by the start of a word', async () => {
    const pa = await get(url(geo.cities, { state: 'pa' }));
    expect(pa.statusCode).toBe(200);
    const names = pa.json().data.map((city: { name: string }) => city.name);
    expect(names.slice(0, 2)).toEqual(['Philadelphia', 'Pittsburgh']);
    expect(names).toHaveLength(250);
    const york = await get(url(geo.cities, { state: 'NY' }, { search: 'york', limit: '5' }));
    expect(york.json().data[0].name).toBe('New York City');
    expect((await get(url(geo.cities, { state: 'PA' }, { limit: '251' }))).statusCode).toBe(422);
    expect((await get(url(geo.cities, { state: 'ZZ' }))).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: url(geo.cities, { state: 'PA' }) })).statusCode).toBe(401);
  });
});
