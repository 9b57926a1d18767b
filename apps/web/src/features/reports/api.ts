import {
  reportsContract as c,
  type NewReport,
  type newDestination,
  type ReportRun,
  type ReportType,
} from '@caredeck/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../shared/api-client';

export type Audience = 'care' | 'pharma';
/** Asks for a report (the new report form's submit). */
export type CreateReport = (body: NewReport) => Promise<unknown>;
export type ReportFilter = { audience: Audience; type: ReportType | ''; mine: number | null; page: number };

/** Still being made: the lists refresh every few seconds while one is. */
const busy = (status: ReportRun['status'] | undefined) => status === 'queued' || status === 'running';
const REFRESH_MS = 3000;

export function useReportTypes(programId: number) {
  return useQuery({
    queryKey: ['reports', programId, 'types'],
    queryFn: ({ signal }) => api.call(c.types, { params: { programId: String(programId) } }, { signal }),
    enabled: programId > 0,
    staleTime: 5 * 60_000,
  });
}

export function useReports(programId: number, f: ReportFilter) {
  return useQuery({
    queryKey: ['reports', programId, 'list', f],
    queryFn: ({ signal }) =>
      api.call(
        c.list,
        {
          params: { programId: String(programId) },
          query: {
            audience: f.audience,
            page: String(f.page),
            ...(f.type ? { type: f.type } : {}),
            ...(f.mine ? { user_id: String(f.mine) } : {}),
          },
        },
        { signal },
      ),
    enabled: programId > 0,
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.data.some((r) => busy(r.last_run?.status) || r.last_run?.delivery === 'pending')
        ? REFRESH_MS
        : false,
  });
}

export function useFailedRuns(programId: number, reportId: number | null) {
  return useQuery({
    queryKey: ['reports', programId, 'failed', reportId],
    queryFn: ({ signal }) =>
      api.call(
        c.failed,
        { params: { programId: String(programId), reportId: String(reportId) }, query: {} },
        { signal },
      ),
    enabled: programId > 0 && reportId !== null,
  });
}

export function useDestinations(enterpriseId: number | null) {
  return useQuery({
    queryKey: ['reports', 'destinations', enterpriseId],
    queryFn: ({ signal }) =>
      api.call(c.destinations, { params: { enterpriseId: String(enterpriseId) } }, { signal }),
    enabled: enterpriseId !== null,
  });
}

export function downloadRun(programId: number, reportId: number, runId: number) {
  return api.download(c.file, {
    params: { programId: String(programId), reportId: String(reportId), runId: String(runId) },
  });
}

export function downloadPatientReport(programId: number, id: number) {
  return api.download(c.patientReportFile, { params: { programId: String(programId), id: String(id) } });
}

export function downloadPatientList(programId: number) {
  return api.download(c.download, { query: { program_id: String(programId) } });
}

export function useReportMutations(programId: number, enterpriseId: number | null) {
  const client = useQueryClient();
  const done = () => void client.invalidateQueries({ queryKey: ['reports'] });
  const p = { programId: String(programId) };
  const e = { enterpriseId: String(enterpriseId) };
  return {
    create: useMutation({
      mutationFn: (input: { audience: Audience; body: NewReport }) =>
        api.call(input.audience === 'pharma' ? c.createPharma : c.create, { params: p, body: input.body }),
      onSuccess: done,
    }),
    pause: useMutation({
      mutationFn: (reportId: number) => api.call(c.pause, { params: { ...e, reportId: String(reportId) } }),
      onSuccess: done,
    }),
    stop: useMutation({
      mutationFn: (reportId: number) => api.call(c.stop, { params: { ...e, reportId: String(reportId) } }),
      onSuccess: done,
    }),
    retry: useMutation({
      mutationFn: (input: { reportId: number; type?: 'generation' | 'delivery' }) =>
        api.call(c.retry, {
          params: { ...p, reportId: String(input.reportId) },
          query: input.type ? { type: input.type } : {},
        }),
      onSuccess: done,
    }),
    addDestination: useMutation({
      mutationFn: (body: z.input<typeof newDestination>) =>
        api.call(c.createDestination, { params: e, body }),
      onSuccess: done,
    }),
    trustHostKey: useMutation({
      mutationFn: (input: { id: number; hostKey: string | null }) =>
        api.call(c.setDestinationHostKey, {
          params: { ...e, destinationId: String(input.id) },
          body: { host_key: input.hostKey },
        }),
      onSuccess: done,
    }),
    removeDestination: useMutation({
      mutationFn: (id: number) =>
        api.call(c.deleteDestination, { params: { ...e, destinationId: String(id) } }),
      onSuccess: done,
    }),
    sendFile: useMutation({
      mutationFn: (input: { destinationId: number; file: File }) => {
        const form = new FormData();
        form.append('report_destination_id', String(input.destinationId));
        form.append('file', input.file);
        return api.upload(c.sftpFile, { params: e }, form);
      },
    }),
  };
}

/** Patient reports of the program (`null`) or of one patient. */
export function usePatientReports(programId: number, patientId: number | null, enabled = true) {
  return useQuery({
    queryKey: ['reports', programId, 'patients', patientId],
    queryFn: ({ signal }) =>
      api.call(
        c.patientReports,
        { params: { programId: String(programId), userId: patientId === null ? 'null' : String(patientId) } },
        { signal },
      ),
    enabled: enabled && programId > 0,
    refetchInterval: (query) => (query.state.data?.data.some((r) => busy(r.status)) ? REFRESH_MS : false),
  });
}

/** The caller's latest patients CSV, checked every few seconds while it is being made. */
export function useCsvGeneration(programId: number) {
  return useQuery({
    queryKey: ['reports', programId, 'csv'],
    queryFn: ({ signal }) => api.call(c.checkCsv, { params: { programId: String(programId) } }, { signal }),
    enabled: programId > 0,
    refetchInterval: (query) => (busy(query.state.data?.report?.status) ? REFRESH_MS : false),
  });
}

export function usePatientReportMutations(programId: number) {
  const client = useQueryClient();
  const done = () => void client.invalidateQueries({ queryKey: ['reports', programId] });
  const p = { programId: String(programId) };
  return {
    generate: useMutation({
      mutationFn: (input: { patientId: number | null; start?: string; end?: string }) =>
        api.call(c.generatePatientReport, {
          params: { ...p, userId: input.patientId === null ? 'null' : String(input.patientId) },
          body: input.start && input.end ? { start: input.start, end: input.end } : {},
        }),
      onSuccess: done,
    }),
    startCsv: useMutation({
      mutationFn: (input: { start?: string; end?: string }) =>
        api.call(c.generateCsv, {
          params: p,
          body: input.start && input.end ? { start: input.start, end: input.end } : {},
        }),
      onSuccess: done,
    }),
    cancelCsv: useMutation({
      mutationFn: (id: number) => api.call(c.cancelCsv, { params: { ...p, id: String(id) } }),
      onSuccess: done,
    }),
  };
}
