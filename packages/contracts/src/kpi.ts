import { z } from 'zod';
import { idParam } from './common';
import { adherenceTotals, calendarDateParam } from './data-views';
import { XLSX } from './exports';
import { defineRoute } from './route';

/** A patient's adherence over the period puts them in one band (programs call below 80 % non-adherent). */
export const ADHERENCE_BANDS = { high: 80, medium: 50 } as const;

export const kpiReport = z.object({
  start: z.string(),
  end: z.string(),
  generated_at: z.string(),
  programs: z.array(z.object({ id: z.number().int(), name: z.string() })),
  patients: z.object({
    enrolled: z.number().int(),
    active: z.number().int(),
    with_dispenser: z.number().int(),
    with_doses_due: z.number().int(),
  }),
  devices: z.object({
    dispensers: z.number().int(),
    connected: z.number().int(),
    seen_24h: z.number().int(),
    low_battery: z.number().int(),
  }),
  doses: adherenceTotals.extend({ extra: z.number().int() }),
  adherence_bands: z.object({
    high: z.number().int(),
    medium: z.number().int(),
    low: z.number().int(),
  }),
  readings: z.object({
    measurements: z.number().int(),
    patients_measured: z.number().int(),
    out_of_range: z.number().int(),
  }),
  daily: z.array(adherenceTotals.extend({ date: z.string() })),
});
export type KpiReport = z.infer<typeof kpiReport>;

const tags = ['kpi'] as const;
const range = { start: calendarDateParam, end: calendarDateParam };

/** KPI of a program or an enterprise (01 §7 "Data views"): the adherence engine's numbers, summed. */
export const kpiContract = {
  program: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/kpi/:start/:end',
    summary: "The program's KPI for a period: patients, devices, doses and adherence, readings",
    tags,
    params: z.object({ programId: idParam, ...range }),
    responses: { 200: kpiReport },
  }),
  enterprise: defineRoute({
    method: 'GET',
    path: '/api/v1/enterprises/:enterpriseId/kpi/:start/:end',
    summary: 'The KPI of every program of the enterprise the caller may see, together',
    tags,
    params: z.object({ enterpriseId: idParam, ...range }),
    responses: { 200: kpiReport },
  }),
  export: defineRoute({
    method: 'GET',
    path: '/api/v1/programs/:programId/kpi/:start/:end/export',
    summary: 'The program KPI as a spreadsheet named "KPI report <start> to <end>.xlsx"',
    tags,
    params: z.object({ programId: idParam, ...range }),
    responses: { 200: null },
    file: { contentType: XLSX },
  }),
};

/** The spreadsheet's name: the KPI report name with its dates (01 §7). */
export const kpiFileName = (start: string, end: string) => `KPI report ${start} to ${end}.xlsx`;
