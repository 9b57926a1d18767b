import { z } from 'zod';
import { idParam, line, queryInt } from './common';
import { defineRoute } from './route';

const search = z.object({ query: line().trim().max(100).default('') });
const drugName = line().trim().min(1).max(200);
const list = z.object({ data: z.array(z.string()) });
const drugs = z.object({
  data: z.array(z.object({ id: z.number().int(), name: z.string(), brands: z.array(z.string()) })),
});
const tags = ['catalogue'] as const;
const program = { programId: idParam };

/** The drug and condition catalogue (01 §7 "Drugs and disease states"): lookups for the regimen forms. */
export const catalogueContract = {
  drugs: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/drugs',
    summary: 'Medications whose generic or brand name starts with the query (at most 20)',
    tags,
    params: z.object(program),
    query: search,
    responses: { 200: drugs },
  }),
  allDrugs: defineRoute({
    method: 'GET',
    path: '/api/v1/drugs',
    summary: 'The same lookup outside a program',
    tags,
    query: search,
    responses: { 200: drugs },
  }),
  strengths: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/drugs/:q/strengths',
    tags,
    params: z.object({ ...program, q: drugName }),
    responses: { 200: list },
  }),
  routes: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/drugs/:q/routes',
    tags,
    params: z.object({ ...program, q: drugName }),
    responses: { 200: list },
  }),
  forms: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/drugs/:q/forms',
    tags,
    params: z.object({ ...program, q: drugName }),
    responses: { 200: list },
  }),
  indications: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/drugs/:q/indications',
    tags,
    params: z.object({ ...program, q: drugName }),
    responses: { 200: list },
  }),
  diseaseStates: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/drugs/disease_states',
    summary: 'Disease states by name, with their ICD-10-CM codes',
    tags,
    params: z.object(program),
    query: search,
    responses: {
      200: z.object({
        data: z.array(
          z.object({
            name: z.string(),
            codes: z.array(z.object({ code: z.string(), description: z.string() })),
          }),
        ),
      }),
    },
  }),
  /** The whole disease-state list (02 §7 "GET disease_states/all"), for pickers that show every choice. */
  allDiseaseStates: defineRoute({
    method: 'GET',
    path: '/api/v1/disease_states/all',
    summary: 'Every disease state with its ICD-10-CM codes',
    tags,
    responses: {
      200: z.object({
        data: z.array(
          z.object({
            name: z.string(),
            codes: z.array(z.object({ code: z.string(), description: z.string() })),
          }),
        ),
      }),
    },
  }),
  diagnosisCodes: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/users/drugs/diagnosis_codes',
    summary: 'ICD-10-CM codes by code prefix or words of the description (at most 25)',
    tags,
    params: z.object(program),
    query: search,
    responses: {
      200: z.object({
        data: z.array(
          z.object({ code: z.string(), description: z.string(), disease_state: z.string().nullable() }),
        ),
      }),
    },
  }),
};

/** Spec limits of the geography lookups (01 §8): at most 100 states and 250 cities per answer. */
export const US_STATES_LIMIT = 100;
export const US_CITIES_LIMIT = 250;

/**
 * US states and cities for the address pickers (01 §7 "Geography lookups"), from data shipped with the
 * project (ADR 025): no outside service. Cities come largest first; `search` matches the start of a word.
 */
export const geographyContract = {
  states: defineRoute({
    method: 'GET',
    path: '/api/v1/geography/states',
    summary: 'US states and territories (USPS code and name)',
    tags: ['geography'],
    query: z.object({
      search: line().trim().max(50).default(''),
      limit: queryInt(1, US_STATES_LIMIT).default(US_STATES_LIMIT),
    }),
    responses: { 200: z.object({ data: z.array(z.object({ code: z.string(), name: z.string() })) }) },
  }),
  /** Every US state and territory, unlimited (02 §7 "GET /all-states"). */
  allStates: defineRoute({
    method: 'GET',
    path: '/api/v1/all-states',
    summary: 'All US states and territories (USPS code and name)',
    tags: ['geography'],
    responses: { 200: z.object({ data: z.array(z.object({ code: z.string(), name: z.string() })) }) },
  }),
  cities: defineRoute({
    method: 'GET',
    path: '/api/v1/geography/states/:state/cities',
    summary: 'Cities of a state with at least 1,000 inhabitants, largest first',
    tags: ['geography'],
    params: z.object({
      state: line()
        .regex(/^[A-Za-z]{2}$/, 'Use a USPS state code.')
        .transform((v) => v.toUpperCase()),
    }),
    query: z.object({
      search: line().trim().max(100).default(''),
      limit: queryInt(1, US_CITIES_LIMIT).default(US_CITIES_LIMIT),
    }),
    responses: {
      200: z.object({ data: z.array(z.object({ name: z.string(), population: z.number().int() })) }),
    },
  }),
};
