import { patientRecordContract } from '@caredeck/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

// The patient searches of the Ctrl+K palette, cohorts and pipelines: apart from the list's calls (api.ts), so the
// patients list loads without the patient record's contract (ADR 048).

/** The Ctrl+K palette's patient finder (`GET patients?search`): by name, MRN or birth date, every program. */
export function usePatientFinder(search: string) {
  const text = search.trim();
  return useQuery({
    queryKey: ['patients', 'find', text],
    queryFn: ({ signal }) =>
      api.call(patientRecordContract.search, { query: { search: text, limit: '8' } }, { signal }),
    enabled: text.length > 1,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

/** Patients of the user's programs by name, MRN or birth date (the quick search of cohorts and pipelines). */
export function usePatientSearch(search: string) {
  return useQuery({
    queryKey: ['patients', 'quick', search],
    queryFn: ({ signal }) => api.call(patientRecordContract.search, { query: { search } }, { signal }),
    enabled: search.trim().length > 1,
    placeholderData: keepPreviousData,
  });
}
