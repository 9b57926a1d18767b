import { useEffect } from 'react';
import { createStore, useStore } from '../../shared/ui/createStore';

/** The patient search text, shared by the patient pages and cleared when the user leaves them (01 §2). */
export const patientSearch = createStore('');

export function usePatientSearch(): string {
  return useStore(patientSearch);
}

/** The patient list and the pages under it (the list is their parent). */
export function isPatientPath(pathname: string): boolean {
  return (
    pathname === '/patients' ||
    pathname.startsWith('/patients/') ||
    pathname.startsWith('/patient/') ||
    pathname.startsWith('/add-patient/')
  );
}

export function useClearPatientSearchOutsidePatientPages(pathname: string): void {
  useEffect(() => {
    if (!isPatientPath(pathname)) patientSearch.set('');
  }, [pathname]);
}
