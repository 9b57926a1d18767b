import { dataViewsContract as c, type MeasurementTypeValue } from '@caredeck/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onLiveEvent, PATIENT_DATA_EVENT, reloadLive } from '../../app/realtime';
import { api } from '../../shared/api-client';

export const dataViewKeys = {
  all: (patientId: number) => ['patient', patientId, 'data-views'] as const,
  adherence: (patientId: number, start: string, end: string) =>
    ['patient', patientId, 'data-views', 'adherence', start, end] as const,
  measurements: (patientId: number, start: string, end: string, types: readonly string[]) =>
    ['patient', patientId, 'data-views', 'measurements', start, end, ...types] as const,
};

const str = (n: number) => String(n);

/** Dose-by-dose adherence of a date range of the patient's calendar. */
export function useAdherence(programId: number, patientId: number, start: string, end: string) {
  return useQuery({
    queryKey: dataViewKeys.adherence(patientId, start, end),
    queryFn: ({ signal }) =>
      api.call(
        c.adherenceRange,
        { params: { programId: str(programId), id: str(patientId), start, end } },
        { signal },
      ),
    placeholderData: keepPreviousData,
    enabled: programId > 0,
  });
}

export function useMeasurements(
  programId: number,
  patientId: number,
  start: string,
  end: string,
  types: readonly MeasurementTypeValue[],
) {
  return useQuery({
    queryKey: dataViewKeys.measurements(patientId, start, end, types),
    queryFn: ({ signal }) =>
      api.call(
        c.measurementsGrouped,
        {
          params: { programId: str(programId), id: str(patientId), start, end },
          query: { types: types.join(',') },
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
    enabled: programId > 0,
  });
}

/**
 * Keeps a patient's data views live: when the server says the patient's doses or readings changed (a
 * device event was stored), the views refetch — no reload, seconds behind the device at most.
 */
export function useLivePatientData(patientId: number): void {
  const client = useQueryClient();
  useEffect(
    () =>
      onLiveEvent(PATIENT_DATA_EVENT, (payload) => {
        if ((payload as { patient_id?: number } | null)?.patient_id === patientId)
          void reloadLive(client, { queryKey: dataViewKeys.all(patientId) });
      }),
    [client, patientId],
  );
}
