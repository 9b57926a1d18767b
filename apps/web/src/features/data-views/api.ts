import { usageViewsContract as c } from '@caredeck/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api-client';
import { dataViewKeys, useLivePatientData } from '../adherence/api';

const str = (n: number) => String(n);
type Range = { programId: number; patientId: number; start: string; end: string };

function useView<T>(kind: string, range: Range, fetcher: (signal: AbortSignal) => Promise<T>) {
  useLivePatientData(range.patientId);
  return useQuery({
    queryKey: [...dataViewKeys.all(range.patientId), kind, range.start, range.end],
    queryFn: ({ signal }) => fetcher(signal),
    placeholderData: keepPreviousData,
    enabled: range.programId > 0 && range.patientId > 0,
  });
}

export const useUsages = (r: Range) =>
  useView('usages', r, (signal) =>
    api.call(
      c.usages,
      { params: { programId: str(r.programId), id: str(r.patientId), start: r.start, end: r.end } },
      { signal },
    ),
  );

export const useInhalerUsages = (r: Range) =>
  useView('inhaler', r, (signal) =>
    api.call(
      c.inhalerUsages,
      { params: { programId: str(r.programId), userId: str(r.patientId), start: r.start, end: r.end } },
      { signal },
    ),
  );

export const useActivities = (r: Range) =>
  useView('activities', r, (signal) =>
    api.call(
      c.activitiesRange,
      { params: { programId: str(r.programId), id: str(r.patientId), start: r.start, end: r.end } },
      { signal },
    ),
  );

export const useSleep = (r: Range) =>
  useView('sleep', r, (signal) =>
    api.call(
      c.sleepRange,
      { params: { programId: str(r.programId), id: str(r.patientId), start: r.start, end: r.end } },
      { signal },
    ),
  );
