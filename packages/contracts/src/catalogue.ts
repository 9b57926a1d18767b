import { z } from 'zod';
import { idParam, line } from './common';
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
